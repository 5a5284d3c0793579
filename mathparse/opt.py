"""Operator Trees (OPT) from Symbol Layout Trees by operator-precedence parsing over the layout.

Each baseline (chain of `n` edges) is read as a token sequence (`mathparse.opt_tokens`); scripts,
fractions, radicands and group cells are parsed first, bottom-up, so the parser below sees one
flat level at a time. Binding power, low → high (`mathparse.opt_symbols`): `,` `;` lists <
`:` < ⇒ ⇔ < ∨ < ∧ < relations (= < ≤ ∈ ⊂ → …) < ∪ ∩ ∖ < + − ± < × ⋅ and juxtaposition <
/ ÷ < unary minus/not/∀ < function application < postfix ! ′ < scripts. Logic binds *looser*
than relations so `a=b \\land c=d` is (a=b)∧(c=d).

Label scheme (what the trees look like):
* `x^{2y}+1` → `U!plus(O!SUP(V!x, U!times(N!2, V!y)), N!1)`; `x_i^2` → `O!SUP(O!SUB(V!x, V!i), N!2)`.
* Commutative `U!…` nodes (plus, times, eq, and, or, union, …) flatten and sort their children,
  every edge "0"; ordered `O!…` nodes number edges "0","1",…. `a-b` → `O!minus(a, b)` (binary,
  left-associative like `a+b-c` → `O!minus(U!plus(a,b), c)`), `-x` → `O!minus(x)`.
* Relation chains: `a<b<c` → `O!lt(a,b,c)`; mixed `a\\le b=c` → `U!and(O!leq(a,b), U!eq(b,c))`.
* Functions: a named function is the parent of its arguments — `\\sin x`, `\\sin(x)` →
  `F!sin(V!x)`; `f(x,y)` → `F!f(V!x, V!y)`. A scripted function head is applied through
  `O!apply`: `\\log_2 n` → `O!apply(O!SUB(F!log, N!2), V!n)`. An unparenthesised argument is
  the product of the atoms that follow, up to the next operator or function (`\\sin 2x\\cos x`
  → sin(2x)·cos(x)). A letter is applied only if it is one of f g h F G H and is directly
  followed by a parenthesised group; `x(1-x)` is a product.
* Big operators are the parent of [lower limit] [upper limit] body [integration variable], in
  that order, absent parts left out: `\\sum_{i=1}^n a_i` → `O!sum(U!eq(V!i,N!1), V!n, O!SUB(…))`;
  an integral's body runs up to its `dx`, other bodies are the product that follows.
* Groups: `(a)` is transparent, `(a,b)` → `O!tuple`, `[a,b]` → `O!interval-cc` (`-co`, `-oc`),
  `\\{a,b\\}` → `U!set`, `\\{x : P\\}` → `O!condset(x, P)`, `|x|` → `O!abs`, `\\|x\\|` → `O!norm`,
  matrices → `O!matrix(O!row(…), …)`, cases → `O!cases(O!row(…), …)`, top-level commas → `O!list`;
  a bar without a partner separates like `:` (`P(A|B)` → `O!divides(V!A, V!B)` under the product).
* Postfix: `n!` → `O!factorial`, `5\\%` → `O!percent`, a prime on the baseline → `O!SUP(x, V!′)`.
* Leaves: `N!2`, `V!x`, `C!π`/`C!∞`/`C!∅`, `T!text`, `F!sin` for an unapplied function.
"""
from __future__ import annotations

from mathparse.opt_nodes import leaf, make
from mathparse.opt_symbols import DELIMITED, FUNCTION_LETTERS, INFIX, INTEGRALS, MUL, PREFIX, REL, SEP, SIGNS, UNARY, OpInfo
from mathparse.opt_tokens import Token, make_token, match_delimiters, with_scripts
from mathparse.tree import Node, Tree

MAX_NESTING = 120
"""Budget of nested parse calls (baselines + precedence levels); deeper input raises OptError."""

_OPERAND_KINDS = frozenset({"atom", "func", "big", "group", "prefix", "diff", "sym"})
_POSTFIX = {"!": "O!factorial", "%": "O!percent"}


class OptError(ValueError):
    """No operator tree can be built from this SLT; `message` says why."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def build_opt(slt: Tree) -> Tree:
    """The Operator Tree of a Symbol Layout Tree (kind "slt"); raises OptError."""
    if slt.kind != "slt":
        raise OptError(f"expected an SLT, got a tree of kind {slt.kind!r}")
    root = _Builder().baseline(slt.root)
    if root.label == "E!" and not root.children:
        raise OptError("the formula has no operands")
    return Tree(root, "opt")


class _Builder:
    """Parses baselines; tracks nesting so that deep input fails with OptError, not RecursionError."""

    def __init__(self) -> None:
        self.depth = 0

    def enter(self) -> None:
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise OptError(f"formula nested deeper than {MAX_NESTING} levels")

    def tokens(self, start: Node) -> list[Token]:
        self.enter()
        raw = []
        node: Node | None = start
        while node is not None:
            raw.append(make_token(node, self.baseline, self.items))
            node = node.child("n")
        tokens = match_delimiters(raw, self.group_from_delimiters)
        self.depth -= 1
        return tokens

    def baseline(self, start: Node) -> Node:
        return _Parser(self.tokens(start), self).whole()

    def items(self, start: Node) -> list[Node]:
        return _Parser(self.tokens(start), self).items()

    def group_from_delimiters(self, opener: Token, closer: Token, inner: list[Token]) -> Token:
        items = _Parser(inner, self).items()
        return Token("group", opener=opener.text, closer=closer.text, items=items, scripts=closer.scripts)


class _Parser:
    """Pratt parser over one baseline's tokens."""

    def __init__(self, tokens: list[Token], builder: _Builder):
        self.toks = tokens
        self.pos = 0
        self.b = builder

    def peek(self) -> Token | None:
        return self.toks[self.pos] if self.pos < len(self.toks) else None

    def take(self) -> Token:
        self.pos += 1
        return self.toks[self.pos - 1]

    def at_operand(self) -> bool:
        tok = self.peek()
        return tok is not None and (tok.kind in _OPERAND_KINDS or tok.kind == "infix")

    def whole(self) -> Node:
        items = self.items()
        if not items:
            return leaf("E!")
        return items[0] if len(items) == 1 else make("O!list", items)

    def items(self) -> list[Node]:
        """Separator-delimited items (`a, b; c`); empty items and trailing separators vanish."""
        out: list[Node] = []
        while (nxt := self.peek()) is not None:
            if nxt.kind == "sep":
                self.take()
                continue
            before = self.pos
            node = self.expr(SEP + 1)
            if self.pos == before:  # a token no rule consumes (a stray `!`): keep what it carries
                tok = self.take()
                if tok.base is not None:
                    out.append(tok.node())
                continue
            out.append(node)
        return out

    def expr(self, min_prec: int) -> Node:
        self.b.enter()
        left = self.operand()
        while True:
            tok = self.peek()
            if tok is None:
                break
            if tok.kind == "infix" and INFIX[tok.text].prec >= min_prec:
                left = self.infix(left, INFIX[tok.text])
            elif tok.kind == "sym" and REL >= min_prec and self._sym_is_infix():
                left = self.infix(left, OpInfo(f"O!{tok.text}", REL))
            elif tok.kind in _OPERAND_KINDS and MUL >= min_prec:  # juxtaposition
                left = make("U!times", [left, self.expr(MUL + 1)])
            else:
                break
        self.b.depth -= 1
        return left

    def _sym_is_infix(self) -> bool:
        nxt = self.toks[self.pos + 1] if self.pos + 1 < len(self.toks) else None
        return nxt is not None and nxt.kind in _OPERAND_KINDS

    def infix(self, left: Node, op: OpInfo) -> Node:
        tok = self.take()
        if op.prec == REL:
            return self.relation_chain(left, op, tok)
        right = self.expr(op.prec + 1) if self.at_operand() else None
        node = make(op.label, [left] if right is None else [left, right])
        return _scripted_operator(node, tok, op.label, left, right)

    def relation_chain(self, left: Node, op: OpInfo, tok: Token) -> Node:
        found: list[Node | None] = [left]
        ops = [(op.label, tok)]
        while True:
            found.append(self.expr(REL + 1) if self.at_operand() else None)
            nxt = self.peek()
            if nxt is None or nxt.kind != "infix" or INFIX[nxt.text].prec != REL or found[-1] is None:
                break
            ops.append((INFIX[nxt.text].label, self.take()))
        operands = [o for o in found if o is not None]
        labels = {label for label, _ in ops}
        if len(labels) == 1 and not any(t.scripts for _, t in ops):
            return make(ops[0][0], operands)
        pairs = [_scripted_operator(make(label, operands[i:i + 2]), t, label, *operands[i:i + 2])
                 for i, (label, t) in enumerate(ops) if operands[i:i + 2]]
        return pairs[0] if len(pairs) == 1 else make("U!and", pairs)

    def operand(self) -> Node:
        tok = self.peek()
        if tok is None or tok.kind in ("sep", "close", "bar", "post", "skip", "open"):
            return leaf("E!")
        self.take()
        handler = getattr(self, f"operand_{tok.kind}")
        return self.postfix(handler(tok))

    def operand_atom(self, tok: Token) -> Node:
        nxt = self.peek()
        base = tok.required_base()
        if (base.label[2:] in FUNCTION_LETTERS and base.label[:2] == "V!" and nxt is not None
                and nxt.kind == "group" and nxt.opener == "("):
            return self.apply(Token("func", base=leaf(f"F!{base.label[2:]}"), scripts=tok.scripts))
        return tok.node()

    operand_sym = operand_atom

    def operand_diff(self, tok: Token) -> Node:
        return tok.base or leaf(f"V!{tok.text}")

    def operand_group(self, tok: Token) -> Node:
        return with_scripts(_group_node(tok), tok.scripts)

    def operand_func(self, tok: Token) -> Node:
        return self.apply(tok)

    def operand_prefix(self, tok: Token) -> Node:
        return make(PREFIX[tok.text], [self.expr(UNARY if tok.text in "∂∇" else MUL)])

    def operand_infix(self, tok: Token) -> Node:
        """An operator where an operand belongs: a sign (`-x`) or a relation missing its left side."""
        if tok.text in SIGNS:
            arg = self.expr(MUL) if self.at_operand() else None
            return make(INFIX[tok.text].label, [arg] if arg is not None else [])
        op = INFIX[tok.text]
        arg = self.expr(op.prec + 1) if self.at_operand() else None
        return make(op.label, [arg] if arg is not None else [])

    def operand_big(self, tok: Token) -> Node:
        limits = [tok.scripts[e] for e in ("b", "u") if e in tok.scripts][:1]
        limits += [tok.scripts[e] for e in ("a", "o") if e in tok.scripts][:1]
        if tok.text in INTEGRALS:
            end = self._differential()
            if end is not None:
                body = _Parser(self.toks[self.pos:end], self.b).whole()
                var = self.toks[end].node() if self.toks[end].kind != "diff" else self.toks[end + 1].node()
                self.pos = end + (1 if self.toks[end].kind != "diff" else 2)
                return make(tok.text, limits + ([body] if body.label != "E!" else []) + [_strip_d(var)])
        product = [self.expr(MUL)] if self.at_operand() else []
        return make(tok.text, limits + product)

    def _differential(self) -> int | None:
        """Index of the `d` (or `V!dx` atom) that closes the integral starting at pos.

        Inner integrals own the first differentials: `\\int\\int f dx dy` closes at `dy`.
        """
        open_integrals = 1
        for i in range(self.pos, len(self.toks)):
            tok = self.toks[i]
            if tok.kind == "big" and tok.text in INTEGRALS:
                open_integrals += 1
            elif (tok.kind == "diff" and i + 1 < len(self.toks) and self.toks[i + 1].kind == "atom"
                  or tok.kind == "atom" and _is_dx(tok.required_base().label)):
                open_integrals -= 1
                if open_integrals == 0:
                    return i
        return None

    def apply(self, func: Token) -> Node:
        """Apply a function token to a parenthesised group or to the product that follows."""
        head = func.node()
        nxt = self.peek()
        if nxt is not None and nxt.kind == "group" and nxt.opener == "(" and nxt.items is not None:
            self.take()
            return with_scripts(_applied(head, nxt.items), nxt.scripts)
        factors = []
        while (tok := self.peek()) is not None and tok.kind in ("atom", "group", "diff"):
            self.take()
            factors.append(self.postfix(getattr(self, f"operand_{tok.kind}")(tok)))
        if not factors:
            return head
        return _applied(head, [factors[0] if len(factors) == 1 else make("U!times", factors)])

    def postfix(self, node: Node) -> Node:
        while (tok := self.peek()) is not None and tok.kind == "post":
            self.take()
            node = make("O!SUP", [node, tok.required_base()]) if tok.text == "prime" else make(_POSTFIX[tok.text], [node])
        return node


def _applied(head: Node, args: list[Node]) -> Node:
    if head.label.startswith("F!") and not head.children:
        return make(head.label, args)
    return make("O!apply", [head, *args])


def _scripted_operator(node: Node, tok: Token, label: str, *operands: Node | None) -> Node:
    """`Y \\times_Z Y` → `O!apply(O!SUB(U!times, V!Z), Y, Y)`, as Content MathML writes it."""
    if not tok.scripts:
        return node
    return make("O!apply", [with_scripts(leaf(label), tok.scripts), *[o for o in operands if o is not None]])


def _is_dx(label: str) -> bool:
    return label.startswith("V!d") and len(label) == 4 and label[3].isalpha()


def _strip_d(var: Node) -> Node:
    return leaf(f"V!{var.label[3:]}") if _is_dx(var.label) else var


def _group_node(tok: Token) -> Node:
    if tok.rows is not None:
        label = "O!cases" if tok.opener == "{" and tok.closer in ("", ".") else "O!matrix"
        return make(label, [make("O!row", row) for row in tok.rows])
    items = tok.items or []
    if tok.opener in DELIMITED:
        return make(DELIMITED[tok.opener], items)
    if tok.opener == "{":
        return _set_node(items)
    if len(items) == 1 and tok.opener in ("(", "[", ""):
        return items[0]
    if len(items) == 2 and {tok.opener, tok.closer} & {"[", "]"}:
        ends = ("c" if tok.opener == "[" else "o") + ("c" if tok.closer == "]" else "o")
        if ends != "oo":
            return make(f"O!interval-{ends}", items)
    return make("O!tuple", items)


def _set_node(items: list[Node]) -> Node:
    if len(items) == 1 and items[0].label in ("O!colon", "O!divides") and len(items[0].children) == 2:
        return make("O!condset", [child for _, child in items[0].children])
    return make("U!set", items)
