"""A learned layer beside the rules: segment classifiers a user trains on annotated policies.

Nothing here ships a model: `pp-graph train opp115 DIR -o MODEL` writes one (OPP-115's licence allows research
use only), `convert --model MODEL` loads it. Without a model the rule extractor's output is unchanged.
"""
