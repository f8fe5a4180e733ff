"""The offline extractor's patterns: the compiled regular expressions and constant tables its rules use.

They are kept apart from the rules so that the rules read as logic and the wording they look for can be reviewed
in one place, one module per group: practices (kinds, categories, details), sentences (clauses, negation,
subjects), scope (sentences that state no practice), collection, sharing, tracking, retention, security, and
headings (section titles, lists, paragraph cues). Each pattern keeps its comment (the wording it is meant to
catch); the rules import it from its module. The lexicons and cue weights themselves are data files
(data/lexicon/*.tsv, data/rules/offline.toml).
"""
