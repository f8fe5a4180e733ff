"""Policy versions over time: dated graphs, semantic diffs between versions, and a site's history."""
