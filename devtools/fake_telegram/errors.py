"""Bot API errors: the status codes and descriptions Telegram answers with, verbatim."""

from __future__ import annotations

from typing import Final

from .objects import JSONDict

# Telegram error descriptions, verbatim.
ERR_NOT_MODIFIED: Final = (
    "Bad Request: message is not modified: specified new message content and reply markup "
    "are exactly the same as a current content and reply markup of the message"
)
ERR_CANT_INITIATE: Final = "Forbidden: bot can't initiate conversation with a user"
ERR_BLOCKED: Final = "Forbidden: bot was blocked by the user"
ERR_DEACTIVATED: Final = "Forbidden: user is deactivated"
ERR_NO_RIGHTS: Final = "Bad Request: not enough rights to send text messages to the chat"
ERR_CHAT_NOT_FOUND: Final = "Bad Request: chat not found"
ERR_EDIT_NOT_FOUND: Final = "Bad Request: message to edit not found"
ERR_DELETE_NOT_FOUND: Final = "Bad Request: message to delete not found"
ERR_TEXT_EMPTY: Final = "Bad Request: message text is empty"
ERR_TEXT_TOO_LONG: Final = "Bad Request: message is too long"
ERR_BUTTON_DATA: Final = "Bad Request: BUTTON_DATA_INVALID"
ERR_MARKUP_TOO_LONG: Final = "Bad Request: reply markup is too long"
ERR_QUERY_INVALID: Final = (
    "Bad Request: query is too old and response timeout expired or query ID is invalid"
)
ERR_MIGRATED: Final = "Bad Request: group chat was upgraded to a supergroup chat"
ERR_TOPIC_CLOSED: Final = "Bad Request: TOPIC_CLOSED"
ERR_THREAD_NOT_FOUND: Final = "Bad Request: message thread not found"
ERR_POLL_CONFLICT: Final = (
    "Conflict: terminated by other getUpdates request; "
    "make sure that only one bot instance is running"
)
ERR_WEBHOOK_ACTIVE: Final = (
    "Conflict: can't use getUpdates method while webhook is active; "
    "use deleteWebhook to delete the webhook first"
)


class ApiError(Exception):
    """Raised by a method handler: becomes a Bot API error response."""

    def __init__(self, status: int, description: str, parameters: JSONDict | None = None) -> None:
        super().__init__(description)
        self.status = status
        self.description = description
        self.parameters = parameters


def bad_request(description: str) -> ApiError:
    return ApiError(400, f"Bad Request: {description}")


def flood(retry_after: int) -> ApiError:
    """429 with ``retry_after``, which PTB turns into ``RetryAfter``."""
    return ApiError(
        429, f"Too Many Requests: retry after {retry_after}", {"retry_after": retry_after}
    )
