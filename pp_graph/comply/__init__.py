"""Compliance answers: the GDPR Art. 13/14 transparency requirements as facts, and checklists per law.

``rules`` loads the offline rules (data/rules/gdpr-transparency.toml), ``detect`` finds the lines that address each
requirement, ``stage`` runs that as a pipeline stage, ``laws`` holds the checklists (data/laws/*.toml), ``checklist``
decides each item for a policy graph and ``report`` writes the answers.
"""
