"""Discord's limits on what a bot sends, enforced with Discord's error shapes.

Each `validate_*` function raises `DiscordHTTPError` (400 `50035 Invalid Form Body` with
the nested `errors` object, or a specific code) exactly where Discord would refuse.
"""

from __future__ import annotations

import re
from typing import Any

from tests.fakediscord.errors import DiscordHTTPError, FormErrors
from tests.fakediscord.state import IS_COMPONENTS_V2

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_ATTACHMENTS = 10
MAX_ROWS = 5
MAX_ROW_BUTTONS = 5
MAX_CUSTOM_ID = 100
MAX_BUTTON_URL = 512
"""The longest URL of a link button."""
MAX_BUTTON_LABEL = 80
MAX_SELECT_OPTIONS = 25
MAX_V2_COMPONENTS = 40
MAX_CHOICES = 25
MAX_MODAL_TITLE = 45
MAX_MODAL_COMPONENTS = 5
MAX_COMMANDS = 100
MAX_OPTIONS = 25
MAX_NONCE = 25
MAX_COMMAND_SIZE = 8000
MAX_STRING_OPTION = 6000
MAX_SAFE_INTEGER = 2**53 - 1
STRING_OPTION, INTEGER_OPTION, NUMBER_OPTION = 3, 4, 10
NUMERIC_TYPES = frozenset({INTEGER_OPTION, NUMBER_OPTION})
CHOICE_TYPES = frozenset({STRING_OPTION, INTEGER_OPTION, NUMBER_OPTION})

_NAME = re.compile(r"^[-_'\w]{1,32}$")

Path = tuple[str | int, ...]


def _length(errors: FormErrors, path: Path, value: Any, low: int, high: int) -> None:
    if value is None:
        if low > 0:
            errors.add(path, "BASE_TYPE_REQUIRED", "This field is required")
        return
    if not isinstance(value, str):
        errors.add(path, "BASE_TYPE_STRING", "Must be a string.")
        return
    if not low <= len(value) <= high:
        if low in (0, high):
            message = f"Must be {high} or fewer in length."
        else:
            message = f"Must be between {low} and {high} in length."
        errors.add(path, "BASE_TYPE_BAD_LENGTH", message)


def validate_message(
    payload: dict[str, Any],
    *,
    attachment_count: int,
    editing: bool = False,
) -> None:
    """A message create or edit body: content, embeds, components, attachments, emptiness."""
    errors = FormErrors()
    content = payload.get("content")
    flags = int(payload.get("flags") or 0)
    v2 = bool(flags & IS_COMPONENTS_V2)
    if content is not None:
        if not isinstance(content, str):
            errors.add(("content",), "BASE_TYPE_STRING", "Must be a string.")
        elif len(content) > MAX_CONTENT:
            errors.add(
                ("content",), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_CONTENT} or fewer in length."
            )
    embeds = payload.get("embeds") or []
    if len(embeds) > MAX_EMBEDS:
        errors.add(("embeds",), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_EMBEDS} or fewer in length.")
    for index, embed in enumerate(embeds):
        validate_embed(errors, ("embeds", index), embed)
    total = sum(_embed_size(e) for e in embeds)
    if total > MAX_EMBED_TOTAL:
        errors.add(
            ("embeds",), "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000"
        )
    if v2 and (content or embeds):
        errors.add(
            ("content",) if content else ("embeds",),
            "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
            "The 'content' and 'embeds' fields cannot be used "
            "when using MessageFlags.IS_COMPONENTS_V2",
        )
    components = payload.get("components")
    if components:
        validate_components(errors, components, v2=v2)
    if attachment_count > MAX_ATTACHMENTS:
        errors.add(
            ("attachments",),
            "BASE_TYPE_MAX_LENGTH",
            f"Must be {MAX_ATTACHMENTS} or fewer in length.",
        )
    errors.raise_if_any()
    if not editing:
        has_body = bool(content) or bool(embeds) or attachment_count > 0
        has_body = has_body or bool(payload.get("sticker_ids")) or bool(payload.get("poll"))
        if v2:
            has_body = bool(components)
        if not has_body:
            raise DiscordHTTPError(400, 50006, "Cannot send an empty message")


def validate_nonce(payload: dict[str, Any]) -> None:
    """Create Message's `nonce` (an integer or a string of up to 25 characters) and
    `enforce_nonce` (a boolean)."""
    errors = FormErrors()
    nonce = payload.get("nonce")
    if nonce is not None:
        if isinstance(nonce, bool) or not isinstance(nonce, int | str):
            errors.add(("nonce",), "BASE_TYPE_STRING", "Must be a string or an integer.")
        elif isinstance(nonce, str) and len(nonce) > MAX_NONCE:
            errors.add(
                ("nonce",), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_NONCE} or fewer in length."
            )
        elif isinstance(nonce, int) and not -(2**63) <= nonce < 2**63:
            errors.add(("nonce",), "NUMBER_TYPE_MAX", "Integer out of range.")
    enforce = payload.get("enforce_nonce")
    if enforce is not None and not isinstance(enforce, bool):
        errors.add(("enforce_nonce",), "BASE_TYPE_BOOLEAN", "Must be either true or false.")
    errors.raise_if_any()


def validate_flags(payload: dict[str, Any], settable: int) -> None:
    """Only the `settable` message flag bits may be sent (400 50035 otherwise)."""
    flags = payload.get("flags")
    if flags is None:
        return
    if isinstance(flags, bool) or not isinstance(flags, int):
        errors = FormErrors()
        errors.add(("flags",), "BASE_TYPE_INTEGER", "Value must be an integer.")
        errors.raise_if_any()
    extra = int(flags) & ~settable
    if extra:
        errors = FormErrors()
        errors.add(
            ("flags",),
            "MESSAGE_FLAGS_NOT_SETTABLE",
            f"Flags {extra} cannot be set here (settable: {settable})",
        )
        errors.raise_if_any()


def validate_embed(errors: FormErrors, path: Path, embed: dict[str, Any]) -> None:
    """One embed's field lengths."""
    for key, limit in (("title", 256), ("description", 4096), ("url", 2048)):
        if embed.get(key) is not None:
            _length(errors, (*path, key), embed[key], 0, limit)
    fields = embed.get("fields") or []
    if len(fields) > 25:
        errors.add((*path, "fields"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    for index, f in enumerate(fields):
        _length(errors, (*path, "fields", index, "name"), f.get("name"), 1, 256)
        _length(errors, (*path, "fields", index, "value"), f.get("value"), 1, 1024)
    footer = embed.get("footer")
    if footer:
        _length(errors, (*path, "footer", "text"), footer.get("text"), 1, 2048)
    author = embed.get("author")
    if author:
        _length(errors, (*path, "author", "name"), author.get("name"), 1, 256)


def _embed_size(embed: dict[str, Any]) -> int:
    size = len(embed.get("title") or "") + len(embed.get("description") or "")
    size += sum(
        len(f.get("name") or "") + len(f.get("value") or "") for f in embed.get("fields") or []
    )
    size += len((embed.get("footer") or {}).get("text") or "")
    size += len((embed.get("author") or {}).get("name") or "")
    return size


def validate_components(errors: FormErrors, components: list[dict[str, Any]], *, v2: bool) -> None:
    """Message components: rows of ≤ 5 buttons or one select, custom_ids unique and ≤ 100."""
    seen: set[str] = set()
    if v2:
        count = _validate_tree(errors, ("components",), components, seen)
        if count > MAX_V2_COMPONENTS:
            errors.add(
                ("components",),
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                f"Must be {MAX_V2_COMPONENTS} or fewer components in total.",
            )
        return
    if len(components) > MAX_ROWS:
        errors.add(
            ("components",), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_ROWS} or fewer in length."
        )
    for index, row in enumerate(components):
        path: Path = ("components", index)
        if row.get("type") != 1:
            errors.add(
                (*path, "type"),
                "UNION_TYPE_CHOICES",
                'Value of field "type" must be one of (1,).',
            )
            continue
        _validate_row(errors, path, row, seen)


def _validate_row(errors: FormErrors, path: Path, row: dict[str, Any], seen: set[str]) -> None:
    children = row.get("components") or []
    if not 1 <= len(children) <= MAX_ROW_BUTTONS:
        errors.add(
            (*path, "components"),
            "BASE_TYPE_BAD_LENGTH",
            f"Must be between 1 and {MAX_ROW_BUTTONS} in length.",
        )
    kinds = {c.get("type") for c in children}
    if len(children) > 1 and kinds & {3, 5, 6, 7, 8}:
        errors.add(
            (*path, "components"),
            "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
            "The specified component exceeds the maximum width",
        )
    for index, child in enumerate(children):
        _validate_interactive(errors, (*path, "components", index), child, seen)


def _validate_tree(
    errors: FormErrors, path: Path, components: list[dict[str, Any]], seen: set[str]
) -> int:
    count = 0
    for index, c in enumerate(components):
        here = (*path, index)
        count += 1
        kind = c.get("type")
        if kind == 1:
            _validate_row(errors, here, c, seen)
            count += len(c.get("components") or [])
        elif kind in (2, 3, 5, 6, 7, 8):
            _validate_interactive(errors, here, c, seen)
        elif kind == 10:
            _length(errors, (*here, "content"), c.get("content"), 1, 4000)
        if kind in (9, 17):
            count += _validate_tree(errors, (*here, "components"), c.get("components") or [], seen)
        accessory = c.get("accessory")
        if isinstance(accessory, dict):
            count += 1
            if accessory.get("type") == 2:
                _validate_interactive(errors, (*here, "accessory"), accessory, seen)
    return count


def _validate_interactive(
    errors: FormErrors, path: Path, component: dict[str, Any], seen: set[str]
) -> None:
    kind = component.get("type")
    custom_id = component.get("custom_id")
    if kind == 2:
        style = component.get("style")
        if style == 5:
            url = component.get("url")
            if not url:
                errors.add((*path, "url"), "BASE_TYPE_REQUIRED", "This field is required")
            elif not str(url).startswith(("http://", "https://", "discord://")):
                errors.add(
                    (*path, "url"),
                    "URL_TYPE_INVALID_SCHEME",
                    "Scheme is not supported. Scheme must be one of ('http', 'https', 'discord').",
                )
            elif len(str(url)) > MAX_BUTTON_URL:
                errors.add(
                    (*path, "url"),
                    "BASE_TYPE_MAX_LENGTH",
                    f"Must be {MAX_BUTTON_URL} or fewer in length.",
                )
            if custom_id is not None:
                errors.add(
                    (*path, "custom_id"),
                    "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED",
                    "A custom id cannot be set for link buttons",
                )
            custom_id = None
        elif style != 6:
            _length(errors, (*path, "custom_id"), custom_id, 1, MAX_CUSTOM_ID)
        label = component.get("label")
        if label is not None:
            _length(errors, (*path, "label"), label, 0, MAX_BUTTON_LABEL)
        if not label and not component.get("emoji") and style != 6:
            errors.add(
                (*path, "label"),
                "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED",
                "A label or an emoji is required",
            )
    elif kind in (3, 5, 6, 7, 8):
        _length(errors, (*path, "custom_id"), custom_id, 1, MAX_CUSTOM_ID)
        _validate_select(errors, path, component)
    else:
        errors.add(
            (*path, "type"), "COMPONENT_TYPE_INVALID", f"Component type {kind} is invalid here"
        )
        return
    _unique(errors, path, custom_id, seen)


def _unique(errors: FormErrors, path: Path, custom_id: Any, seen: set[str]) -> None:
    """A custom_id may appear once per message or modal."""
    if not isinstance(custom_id, str):
        return
    if custom_id in seen:
        errors.add(
            (*path, "custom_id"),
            "COMPONENT_CUSTOM_ID_DUPLICATED",
            "Component custom id cannot be duplicated",
        )
    seen.add(custom_id)


def _validate_select(errors: FormErrors, path: Path, select: dict[str, Any]) -> None:
    if select.get("placeholder") is not None:
        _length(errors, (*path, "placeholder"), select["placeholder"], 0, 150)
    low = select.get("min_values", 1)
    high = select.get("max_values", 1)
    if not 0 <= low <= 25:
        errors.add(
            (*path, "min_values"), "NUMBER_TYPE_MAX", "int value should be between 0 and 25."
        )
    if not 1 <= high <= 25 or high < low:
        errors.add(
            (*path, "max_values"), "NUMBER_TYPE_MAX", "int value should be between 1 and 25."
        )
    if select.get("type") != 3:
        return
    options = select.get("options") or []
    if not 1 <= len(options) <= MAX_SELECT_OPTIONS:
        errors.add(
            (*path, "options"),
            "BASE_TYPE_BAD_LENGTH",
            f"Must be between 1 and {MAX_SELECT_OPTIONS} in length.",
        )
    if high > len(options) and options:
        errors.add(
            (*path, "max_values"),
            "SELECT_COMPONENT_MAX_VALUES_EXCEEDS_OPTIONS",
            "max_values cannot be larger than the number of options",
        )
    values: set[str] = set()
    for index, option in enumerate(options):
        _length(errors, (*path, "options", index, "label"), option.get("label"), 1, 100)
        _length(errors, (*path, "options", index, "value"), option.get("value"), 1, 100)
        if option.get("description") is not None:
            _length(errors, (*path, "options", index, "description"), option["description"], 0, 100)
        if option.get("value") in values:
            errors.add(
                (*path, "options", index, "value"),
                "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                "Select option values must be unique",
            )
        values.add(option.get("value"))


def validate_modal(data: dict[str, Any]) -> None:
    """A modal (response type 9): title, custom_id, 1–5 rows/labels of text inputs or selects."""
    errors = FormErrors()
    _length(errors, ("title",), data.get("title"), 1, MAX_MODAL_TITLE)
    _length(errors, ("custom_id",), data.get("custom_id"), 1, MAX_CUSTOM_ID)
    components = data.get("components") or []
    if not 1 <= len(components) <= MAX_MODAL_COMPONENTS:
        errors.add(
            ("components",),
            "BASE_TYPE_BAD_LENGTH",
            f"Must be between 1 and {MAX_MODAL_COMPONENTS} in length.",
        )
    seen: set[str] = set()
    for index, top in enumerate(components):
        path: Path = ("components", index)
        kind = top.get("type")
        if kind == 1:
            children = top.get("components") or []
            if len(children) != 1:
                errors.add(
                    (*path, "components"),
                    "BASE_TYPE_BAD_LENGTH",
                    "Must be between 1 and 1 in length.",
                )
            for child_index, child in enumerate(children):
                child_path = (*path, "components", child_index)
                if child.get("type") != 4:
                    errors.add(
                        (*child_path, "type"),
                        "COMPONENT_TYPE_INVALID",
                        "Only text inputs may be put in a modal's action row",
                    )
                    continue
                _length(errors, (*child_path, "label"), child.get("label"), 1, 45)
                _validate_modal_input(errors, child_path, child, seen)
        elif kind == 18:
            _length(errors, (*path, "label"), top.get("label"), 1, 45)
            if top.get("description") is not None:
                _length(errors, (*path, "description"), top["description"], 0, 100)
            child = top.get("component") or {}
            if child.get("type") not in (3, 4, 5, 6, 7, 8, 19, 21, 22, 23):
                errors.add(
                    (*path, "component", "type"),
                    "COMPONENT_TYPE_INVALID",
                    f"Component type {child.get('type')} is invalid in a label",
                )
            elif child.get("type") == 4:
                if child.get("label") is not None:
                    errors.add(
                        (*path, "component", "label"),
                        "TEXT_INPUT_LABEL_NOT_ALLOWED",
                        "A text input in a label cannot have its own label",
                    )
                _validate_modal_input(errors, (*path, "component"), child, seen)
            else:
                _length(errors, (*path, "component", "custom_id"), child.get("custom_id"), 1, 100)
                if child.get("type") == 3:
                    _validate_select(errors, (*path, "component"), child)
                seen.add(str(child.get("custom_id")))
        elif kind == 10:
            _length(errors, (*path, "content"), top.get("content"), 1, 4000)
        else:
            errors.add(
                (*path, "type"),
                "COMPONENT_TYPE_INVALID",
                f"Component type {kind} is invalid in a modal",
            )
    errors.raise_if_any()


def _validate_modal_input(
    errors: FormErrors, path: Path, text_input: dict[str, Any], seen: set[str]
) -> None:
    custom_id = text_input.get("custom_id")
    _length(errors, (*path, "custom_id"), custom_id, 1, MAX_CUSTOM_ID)
    if text_input.get("style") not in (1, 2):
        errors.add((*path, "style"), "BASE_TYPE_CHOICES", "Value must be one of (1, 2).")
    low = text_input.get("min_length")
    high = text_input.get("max_length")
    if low is not None and not 0 <= low <= 4000:
        errors.add(
            (*path, "min_length"), "NUMBER_TYPE_MAX", "int value should be between 0 and 4000."
        )
    if high is not None and not 1 <= high <= 4000:
        errors.add(
            (*path, "max_length"), "NUMBER_TYPE_MAX", "int value should be between 1 and 4000."
        )
    if text_input.get("value") is not None:
        _length(errors, (*path, "value"), text_input["value"], 0, high or 4000)
    if text_input.get("placeholder") is not None:
        _length(errors, (*path, "placeholder"), text_input["placeholder"], 0, 100)
    _unique(errors, path, custom_id, seen)


def validate_choices(data: dict[str, Any], option_type: int | None) -> list[dict[str, Any]]:
    """An autocomplete result (response type 8): at most 25 choices, names 1–100 chars,
    values of the focused option's type (`option_type`)."""
    errors = FormErrors()
    choices = data.get("choices")
    if not isinstance(choices, list):
        errors.add(("choices",), "BASE_TYPE_REQUIRED", "This field is required")
        errors.raise_if_any()
        return []
    if len(choices) > MAX_CHOICES:
        errors.add(
            ("choices",),
            "BASE_TYPE_MAX_LENGTH",
            f"Must be {MAX_CHOICES} or fewer in length.",
        )
    for index, choice in enumerate(choices):
        _length(errors, ("choices", index, "name"), choice.get("name"), 1, 100)
        path = ("choices", index, "value")
        _validate_value(errors, path, choice, option_type, shortest=0)
    errors.raise_if_any()
    return choices


def validate_commands(commands: list[dict[str, Any]]) -> None:
    """A bulk command overwrite: names, descriptions, options, choices, nesting, duplicates."""
    errors = FormErrors()
    if len([c for c in commands if c.get("type", 1) == 1]) > MAX_COMMANDS:
        errors.add((), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_COMMANDS} or fewer in length.")
    seen: set[tuple[int, str]] = set()
    for index, command in enumerate(commands):
        kind = command.get("type", 1)
        name = command.get("name")
        path: Path = (index,)
        if kind == 1:
            _validate_name(errors, (*path, "name"), name)
            _length(errors, (*path, "description"), command.get("description"), 1, 100)
            _validate_options(errors, path, command.get("options") or [], depth=0)
            if command_size(command) > MAX_COMMAND_SIZE:
                errors.add(
                    path,
                    "APPLICATION_COMMAND_TOO_LARGE",
                    f"Command exceeds maximum size ({MAX_COMMAND_SIZE})",
                )
        else:
            _length(errors, (*path, "name"), name, 1, 32)
            if command.get("description"):
                errors.add(
                    (*path, "description"),
                    "APPLICATION_COMMAND_CONTEXT_MENU_DESCRIPTION",
                    "Context menu commands cannot have a description",
                )
        key = (kind, str(name))
        if key in seen:
            errors.add(
                (*path, "name"),
                "APPLICATION_COMMANDS_DUPLICATE_NAME",
                "Application command names must be unique",
            )
        seen.add(key)
    errors.raise_if_any()


def _validate_value(
    errors: FormErrors, path: Path, choice: dict[str, Any], kind: Any, *, shortest: int = 1
) -> None:
    """A choice's value has its option's type: a string of `shortest`–100 characters, an
    integer or a number within ±2^53 (with no known type: a string or a number)."""
    value: Any = choice.get("value")
    if kind is None:
        kind = STRING_OPTION if isinstance(value, str) else NUMBER_OPTION
    if kind == STRING_OPTION:
        _length(errors, path, value, shortest, 100)
    elif kind in NUMERIC_TYPES:
        if not _is_number(value, integer=kind == INTEGER_OPTION):
            what = "integer" if kind == INTEGER_OPTION else "number"
            errors.add(path, f"BASE_TYPE_{what.upper()}", f"Value must be a {what}.")
        elif abs(value) > MAX_SAFE_INTEGER:
            errors.add(path, "NUMBER_TYPE_MAX", f"Must be at most {MAX_SAFE_INTEGER}.")


def _is_number(value: Any, *, integer: bool) -> bool:
    if isinstance(value, bool):
        return False
    return isinstance(value, int) if integer else isinstance(value, int | float)


def _validate_bounds(errors: FormErrors, path: Path, option: dict[str, Any]) -> None:
    """`min_value` ≤ `max_value` on numeric options, `min_length` ≤ `max_length` (0–6000)
    on strings; neither elsewhere."""
    kind = option.get("type")
    for key in ("min_value", "max_value"):
        if key not in option or option[key] is None:
            continue
        if kind not in NUMERIC_TYPES:
            errors.add((*path, key), "APPLICATION_COMMAND_OPTION_INVALID", f"{key} is for numbers")
        elif not _is_number(option[key], integer=kind == INTEGER_OPTION):
            errors.add((*path, key), "BASE_TYPE_NUMBER", "Value must be a number.")
        elif abs(option[key]) > MAX_SAFE_INTEGER:
            errors.add((*path, key), "NUMBER_TYPE_MAX", f"Must be at most {MAX_SAFE_INTEGER}.")
    low, high = option.get("min_value"), option.get("max_value")
    if isinstance(low, int | float) and isinstance(high, int | float) and low > high:
        errors.add(
            (*path, "max_value"),
            "APPLICATION_COMMAND_OPTION_MIN_MAX_INVALID",
            "max_value must be greater than or equal to min_value",
        )
    for key, floor in (("min_length", 0), ("max_length", 1)):
        if key not in option or option[key] is None:
            continue
        value = option[key]
        if kind != STRING_OPTION:
            errors.add((*path, key), "APPLICATION_COMMAND_OPTION_INVALID", f"{key} is for strings")
        elif isinstance(value, bool) or not isinstance(value, int):
            errors.add((*path, key), "BASE_TYPE_INTEGER", "Value must be an integer.")
        elif not floor <= value <= MAX_STRING_OPTION:
            errors.add(
                (*path, key),
                "NUMBER_TYPE_OUT_OF_RANGE",
                f"Must be between {floor} and {MAX_STRING_OPTION}.",
            )
    low, high = option.get("min_length"), option.get("max_length")
    if isinstance(low, int) and isinstance(high, int) and low > high:
        errors.add(
            (*path, "max_length"),
            "APPLICATION_COMMAND_OPTION_MIN_MAX_INVALID",
            "max_length must be greater than or equal to min_length",
        )


def command_size(command: dict[str, Any]) -> int:
    """The characters Discord counts against a command's 8,000: names, descriptions and
    choice names and values, of the command, its options and sub-commands (of each text,
    its longest localization)."""

    def longest(item: dict[str, Any], key: str) -> int:
        texts = [str(item.get(key) or "")]
        texts += [str(t) for t in (item.get(f"{key}_localizations") or {}).values()]
        return max(len(t) for t in texts)

    def size(item: dict[str, Any]) -> int:
        total = longest(item, "name") + longest(item, "description")
        for choice in item.get("choices") or []:
            total += longest(choice, "name") + len(str(choice.get("value", "")))
        return total + sum(size(o) for o in item.get("options") or [])

    return size(command)


def _validate_name(errors: FormErrors, path: Path, name: Any) -> None:
    if not isinstance(name, str) or not _NAME.match(name) or name != name.lower():
        errors.add(
            path,
            "APPLICATION_COMMAND_INVALID_NAME",
            f"Command name is invalid: {name!r} (1-32 lowercase letters, digits, - or _)",
        )


def _validate_options(
    errors: FormErrors, path: Path, options: list[dict[str, Any]], *, depth: int
) -> None:
    if len(options) > MAX_OPTIONS:
        errors.add(
            (*path, "options"), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_OPTIONS} or fewer in length."
        )
    names: set[str] = set()
    optional_seen = False
    kinds = {o.get("type") for o in options}
    if kinds & {1, 2} and kinds - {1, 2}:
        errors.add(
            (*path, "options"),
            "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
            "Sub-commands and groups cannot be mixed with other options",
        )
    for index, option in enumerate(options):
        here = (*path, "options", index)
        kind = option.get("type")
        _validate_name(errors, (*here, "name"), option.get("name"))
        _length(errors, (*here, "description"), option.get("description"), 1, 100)
        if option.get("name") in names:
            errors.add(
                (*here, "name"),
                "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                "Option names must be unique",
            )
        names.add(str(option.get("name")))
        if kind in (1, 2):
            if (kind == 2 and depth > 0) or (kind == 1 and depth > 1):
                errors.add(
                    (*here, "type"),
                    "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                    "Sub-command groups can only be nested one level deep",
                )
            sub = option.get("options") or []
            if kind == 2 and any(o.get("type") != 1 for o in sub):
                errors.add(
                    (*here, "options"),
                    "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                    "A sub-command group may only hold sub-commands",
                )
            _validate_options(errors, here, sub, depth=depth + 1)
            continue
        if option.get("required"):
            if optional_seen:
                errors.add(
                    (*here, "required"),
                    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                    "Required options must be placed before non-required options",
                )
        else:
            optional_seen = True
        choices = option.get("choices") or []
        if len(choices) > MAX_CHOICES:
            errors.add(
                (*here, "choices"),
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {MAX_CHOICES} or fewer in length.",
            )
        if choices and option.get("autocomplete"):
            errors.add(
                (*here, "autocomplete"),
                "APPLICATION_COMMAND_AUTOCOMPLETE_INVALID",
                "Autocomplete cannot be set on an option with choices",
            )
        if choices and kind not in CHOICE_TYPES:
            errors.add(
                (*here, "choices"),
                "APPLICATION_COMMAND_OPTION_CHOICES_INVALID",
                "Only string, integer and number options can have choices",
            )
        for choice_index, choice in enumerate(choices):
            _length(errors, (*here, "choices", choice_index, "name"), choice.get("name"), 1, 100)
            _validate_value(errors, (*here, "choices", choice_index, "value"), choice, kind)
        _validate_bounds(errors, here, option)
