// Enhancements only: every page works without this file.
(function () {
  "use strict";
  // Sites list: filter the cards as one types.
  var filter = document.getElementById("site-filter");
  if (filter) {
    filter.addEventListener("input", function () {
      var q = filter.value.trim().toLowerCase();
      document.querySelectorAll("#site-cards .card").forEach(function (c) {
        c.hidden = q !== "" && c.getAttribute("data-site").indexOf(q) === -1;
      });
    });
  }
  // Policy page: a click on a highlight shows its practice(s) in the side panel instead of jumping.
  var panel = document.getElementById("practice-panel");
  if (panel) {
    var body = document.getElementById("panel-body");
    document.getElementById("policy-text").addEventListener("click", function (ev) {
      var a = ev.target.closest("a.hl");
      if (!a) return;
      ev.preventDefault();
      body.replaceChildren();
      a.getAttribute("data-practices").split(" ").forEach(function (id) {
        var card = document.getElementById(id);
        if (!card) return;
        var copy = body.appendChild(card.cloneNode(true));
        copy.removeAttribute("id");
        // Each DPV concept gets its definition from the page's glossary.
        copy.querySelectorAll("a.concept").forEach(function (c) {
          var dt = document.getElementById(c.getAttribute("href").slice(1));
          if (dt && dt.nextElementSibling) {
            var small = document.createElement("small");
            small.className = "def";
            small.textContent = dt.nextElementSibling.firstChild.textContent;
            c.parentNode.insertBefore(document.createElement("br"), c.nextSibling.nextSibling);
            c.parentNode.insertBefore(small, c.nextSibling.nextSibling.nextSibling);
          }
        });
      });
      panel.hidden = false;
      history.replaceState(null, "", "#" + a.getAttribute("data-practices").split(" ")[0]);
    });
    document.getElementById("panel-close").addEventListener("click", function () { panel.hidden = true; });
  }
  // Sortable tables: click a header to sort by that column (numbers numerically).
  document.querySelectorAll("table.sortable").forEach(function (table) {
    table.querySelectorAll("th").forEach(function (th, col) {
      th.addEventListener("click", function () {
        var tbody = table.tBodies[0];
        var rows = Array.prototype.slice.call(tbody.rows);
        var asc = th.getAttribute("data-sort") !== "asc";
        table.querySelectorAll("th").forEach(function (h) { h.removeAttribute("data-sort"); });
        th.setAttribute("data-sort", asc ? "asc" : "desc");
        rows.sort(function (a, b) {
          var x = a.cells[col].textContent.trim(), y = b.cells[col].textContent.trim();
          var nx = parseFloat(x), ny = parseFloat(y);
          var c = (!isNaN(nx) && !isNaN(ny) && String(nx) === x && String(ny) === y) ? nx - ny : x.localeCompare(y);
          return asc ? c : -c;
        });
        rows.forEach(function (r) { tbody.appendChild(r); });
      });
    });
  });
})();
