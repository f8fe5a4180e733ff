"""Self-contradictions: a policy denying a practice on some data in one line and stating it in another.

``statements`` reads the practices of a policy graph, ``cues`` loads the data file of practice words and
reconciling cues (data/contradict/cues.toml), ``relation`` relates data categories along the DPV hierarchy,
``reconcile`` decides what makes a pair consistent, ``pairs`` finds the contradicting pairs, ``inputs`` reads texts
and graphs, ``find`` is the library entry and ``report`` writes the results.
"""

from pp_graph.contradict.find import PolicyContradictions, find, find_in_text

__all__ = ["PolicyContradictions", "find", "find_in_text"]
