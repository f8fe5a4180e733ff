"""Read-only views of a corpus of policy graphs: the data behind the HTML report and the browser UI."""
