"""LLM extraction through any OpenAI-compatible server (OpenAI, Ollama, vLLM, llama.cpp).

Layout: ``config`` (settings, TOML), ``prompts`` (prompts/*.toml, versioned by hash), ``prices``
(data/llm-prices.tsv), ``cache`` (SQLite), ``client`` (retries, budget, usage), ``parse`` (repair,
schema, grounding), ``backend`` (the Backend: stage grouping and packing), ``estimate``
(dry-run cost without network).
"""
