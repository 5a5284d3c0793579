"""The uses of a document's macros, expanded one at a time from the text of its files, and their bounds.

Expansion is bounded by the tokens it reads, however deep it nests: a use of a macro that reads more than
MAX_USE_TOKENS is left as written, reported once naming the macro, and the macro is not expanded again; once the
document's uses have read its budget (MAX_DOCUMENT_TOKENS, and TOKENS_PER_SOURCE_CHAR more for each character of
its files, as a small file of nested `\\def`s can ask for millions, and never more than its upload has left),
no macro is expanded after it. A use whose arguments run away is left as written too, and the macro is still
expanded elsewhere.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from corpora.documents import latex_macros as defs
from corpora.documents.budgets import UploadTokens
from corpora.documents.latex_conditionals import branch
from corpora.documents.latex_macros import Macro, RunawayArgument, UseMismatch
from corpora.documents.latex_output import ExpandedText
from corpora.documents.latex_tokens import Frame, Token, TokenStream
from corpora.documents.problems import ProblemKind, ReadProblem

MAX_USE_TOKENS = 20_000
"""The largest use in TeX Live's science documentation reads 531 tokens."""
MAX_DOCUMENT_TOKENS = 20_000
TOKENS_PER_SOURCE_CHAR = 10
"""Those documents' uses read at most 1.8 tokens per character of their files."""


class ExpansionLimit(Exception):
    """A macro use to leave as written: `why` completes "macro \\name …"."""

    def __init__(self, macro: str, why: str, kind: ProblemKind) -> None:
        super().__init__(f"macro \\{macro} {why}; left as written")
        self.macro = macro
        self.kind = kind
        """"runaway-argument" (the use is left, the macro still expanded elsewhere), "macro-loop" or "macro-budget"
        (a bound passed: the macro, or every macro, is no longer expanded)."""


@dataclass
class Use:
    """A macro use written in a file, being expanded: where to go back to if it fails."""

    macro: str
    call: str
    """The macro as written; its arguments are read again as text when the use is abandoned."""
    depth: int
    out_length: int
    frame: Frame
    pos: int
    """Where `frame` (the file's text, usually) goes on after the macro."""
    start: int
    """The stream's token count when the use began."""
    file_frame: Frame | None
    file_pos: int


class DocumentTokens:
    """The tokens a document's macro uses may read: more for each character of its files, never more than its
    upload has left."""

    def __init__(self, upload: UploadTokens) -> None:
        self.upload = upload
        self.source_chars = 0
        self.spent = 0  # tokens read by the document's macro uses so far
        self.stopped = False  # the budget is spent: no macro is expanded any more

    @property
    def budget(self) -> int:
        return min(MAX_DOCUMENT_TOKENS + TOKENS_PER_SOURCE_CHAR * self.source_chars, self.upload.left)

    @property
    def ceiling(self) -> int:
        """The tokens a document may read in all: its files, its uses' budget, and as much again for the text of
        uses left as written, read twice. Reading past it is a loop of this reader's, not of the document's."""
        return 3 * self.budget

    def for_a_use(self) -> int:
        return min(MAX_USE_TOKENS, max(self.budget - self.spent, 0))

    def passed(self, macro: str, read: int) -> ExpansionLimit:
        """The bound that a use of `macro`, having read `read` tokens, has passed."""
        if self.spent + read >= self.budget:
            self.stopped = True
            whose = "its upload's macros had left" if self.budget == self.upload.left else "the document's macros may read"
            return ExpansionLimit(macro, f"goes past the {self.budget:,} tokens {whose}; no macro is expanded "
                                  "after it", "macro-budget")
        return ExpansionLimit(macro, f"reads more than {MAX_USE_TOKENS:,} tokens (it expands forever)", "macro-loop")


class MacroUses:
    """The use being expanded, if any (a macro it calls is part of it), and what to do when one fails: go back to
    before it, write it as it stands, and report it once per macro and kind of problem."""

    def __init__(self, stream: TokenStream, output: ExpandedText, problems: list[ReadProblem],
                 upload: UploadTokens) -> None:
        self.stream = stream
        self.output = output
        self.problems = problems
        self.tokens = DocumentTokens(upload)
        self.use: Use | None = None
        self.broken: set[str] = set()
        self.reported: set[tuple[str, str]] = set()

    def expands(self, name: str) -> bool:
        """Whether a use of the macro `name` is expanded (not past a bound)."""
        return not (self.tokens.stopped or name in self.broken)

    def call(self, token: Token, macro: Macro) -> None:
        """The use's arguments read and its replacement text read next."""
        self.begin(token)
        try:
            defs.match_prefix(self.stream, macro.prefix)
            values = defs.arguments(self.stream, macro.params)
        except UseMismatch as error:
            raise ExpansionLimit(macro.name, str(error), "runaway-argument") from None
        except RunawayArgument as error:
            raise ExpansionLimit(macro.name, f"has a runaway argument: {error}", "runaway-argument") from None
        self.output.write(token.space)
        self.stream.push(Frame(defs.substitute(macro.body, values), macro=macro.name, at_letter=macro.at_letter))

    def branch(self, token: Token, defined: Callable[[str], bool]) -> None:
        """`\\@ifnextchar` and the like: the branch taken is read next, as a macro's replacement text."""
        self.begin(token)
        at_letter = self.stream.reading_at_letter
        text = branch(token.name, self.stream, defined)
        self.output.write(token.space)
        self.stream.push(Frame(text, macro=token.name, at_letter=at_letter))

    def begin(self, token: Token) -> None:
        if self.use is not None:
            return
        stream = self.stream
        stream.push_back_to_source()
        file_frame = stream.file_frame
        self.use = Use(token.name, token.written, stream.macro_depth + 1, len(self.output.pieces),
                       stream.frames[-1], stream.frames[-1].pos, stream.count, file_frame,
                       file_frame.pos if file_frame is not None else 0)
        stream.limit = stream.count + self.tokens.for_a_use()

    def end_if_left(self) -> None:
        """Ends the use once the stream has left its replacement texts."""
        if self.use is not None and self.stream.macro_depth < self.use.depth:
            self.end()

    def end(self) -> None:
        if self.use is not None:
            self.tokens.spent += self.stream.count - self.use.start
        self.use = None
        self.stream.limit = self.tokens.ceiling

    def source_read(self, chars: int) -> None:
        """A file of `chars` characters is read: the document's budget grows with it."""
        self.tokens.source_chars += chars
        if self.use is None:
            self.stream.limit = self.tokens.ceiling

    def limit(self) -> ExpansionLimit:
        """The bound a use has just passed; ValueError past the ceiling."""
        use = self.use
        if use is None:
            raise ValueError(f"reading the document took more than {self.tokens.ceiling:,} tokens")
        return self.tokens.passed(use.macro, self.stream.count - use.start)

    def abandon(self, error: ExpansionLimit) -> None:
        """Back to before the macro use that failed: its frames dropped, its output undone, the use written as
        it stands and reported; past a bound, the macro is no longer expanded."""
        use, stream = self.use, self.stream
        if use is None:  # pragma: no cover - a limit is only raised during a use
            raise error
        stream.pop_to(use.frame)
        if stream.frames and stream.frames[-1] is use.frame:
            use.frame.pos = use.pos
        self.output.take_back(use.out_length)
        self.end()
        if error.kind != "runaway-argument":
            self.broken.add(error.macro)
        self.report(error, use)
        self.output.write(use.call)

    def report(self, error: ExpansionLimit, use: Use) -> None:
        if (error.macro, error.kind) in self.reported:
            return
        self.reported.add((error.macro, error.kind))
        frame = use.file_frame
        line = frame.text.count("\n", 0, use.file_pos) + 1 if frame is not None else None
        self.problems.append(ReadProblem(frame.file if frame is not None else "", line, error.kind, str(error)))

    def runaway(self, error: RunawayArgument, token: Token | None) -> None:
        """A runaway argument of a command that is not a macro use (a definition, `\\@ifnextchar`)."""
        if self.use is not None:
            self.abandon(ExpansionLimit(self.use.macro, f"has a runaway argument: {error}", "runaway-argument"))
        else:
            command = f"\\{token.name}: " if token is not None else ""
            self.problems.append(ReadProblem(self.stream.file, self.stream.line or None, "runaway-argument",
                                             f"{command}{error}"))
