"""Typed errors of the LLM backend.

``fatal`` errors (a rejected key, an unknown model, an exhausted budget) would hit every policy the
same way, so the batch stops at the first one; other errors fail only the policy they occur in.
"""

from __future__ import annotations

from pp_graph.errors import ConfigError, PPGraphError


class LLMError(PPGraphError):
    """A request to the language model failed."""

    fatal = False


class LLMRequestError(LLMError):
    """One request failed for good (retries exhausted, or a request the server refuses)."""


class LLMFatalError(LLMError):
    """An error that every further request would repeat: stop the batch."""

    fatal = True


class LLMAuthError(LLMFatalError):
    """The server refused the API key (401/403)."""


class LLMModelError(LLMFatalError):
    """The server does not know the model (404, or 400 naming the model)."""


class LLMConnectionError(LLMFatalError):
    """The server cannot be reached at all (refused, no route, DNS) after the retries."""


class LLMNoKeyError(LLMFatalError, ConfigError):
    """No API key and no local server: every policy would stop at its first request the same way."""


class BudgetExceeded(LLMFatalError):
    """The next request would take the spending over ``--budget``."""


class Truncated(LLMError):
    """The answer hit max_tokens at the largest budget allowed (internal: the caller splits the batch)."""
