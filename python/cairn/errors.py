"""The exceptions cairn raises in Python."""

import re


class Error(Exception):
    """A failure reported by cairn. ``message`` is cairn's sentence; for an error raised in a
    Lua script, ``file`` and ``line`` give its position (else None)."""

    def __init__(self, message):
        super().__init__(message)
        self.message = message
        m = re.match(r"^([^\s:][^:\n]*):(\d+): ", message)
        self.file = m.group(1) if m else None
        self.line = int(m.group(2)) if m else None


class ArgumentError(Error, TypeError):
    """An argument of the wrong type: a cairn.Error that is also a TypeError."""


class StaleObjectError(Error):
    """A model, a view or a Lua object (a contact handle, a function) used after its model was
    closed."""


class InCallbackError(Error):
    """A call refused because it comes from inside one of the model's own calls: ``close()``
    in a history function or callback of the same model."""


# cairn's and Lua's phrasings of an argument of the wrong type
_TYPE_NAMES = r"(?:a |an )?(?:nil|no value|boolean|number|string|table|function|userdata|" \
              r"light userdata|thread|non-integer number)"
_TYPE_ERROR = re.compile(
    r"\(got " + _TYPE_NAMES + r"\)|\(\w+ expected, got " + _TYPE_NAMES.replace("(?:a |an )?", "") +
    r"\)|expected a [^,]+, got " + _TYPE_NAMES + r"\b|must be a table")


def from_message(message):
    """The exception for one of cairn's messages: an ArgumentError for a wrong type."""
    return ArgumentError(message) if _TYPE_ERROR.search(message) else Error(message)
