import re
import string

import pytest

from corpora.documents import budgets, latex_tokens, latex_uses
from corpora.documents.budgets import OverBudget, UploadTokens
from corpora.documents.latex_expansion import expand
from corpora.documents.latex_macros import Macro, Param
from corpora.documents.latex_uses import MAX_USE_TOKENS


def _no_files(command, name, including):
    if command == "usepackage":
        raise LookupError(name)
    raise ValueError("no such file in the upload")


def _files(files: dict[str, str]):
    """A resolver over {path: text}: `\\input{a}` finds a.tex, `\\usepackage{p}` finds p.sty."""
    def resolve(command, name, including):
        for path in (name, f"{name}.sty" if command == "usepackage" else f"{name}.tex"):
            if path in files:
                return path, files[path]
        return _no_files(command, name, including)
    return resolve


def expanded(text: str, **files: str) -> str:
    return " ".join(expand(text, "main.tex", _files(files)).text.split())


def formulas(text: str) -> list[str]:
    return re.findall(r"\$([^$]*)\$", text)


@pytest.mark.parametrize("source, expected", [
    pytest.param(r"\newcommand{\R}{\mathbb{R}}$\R$", r"$\mathbb{R}$", id="newcommand"),
    pytest.param(r"\newcommand\R{\mathbb{R}}$\R$", r"$\mathbb{R}$", id="newcommand-without-braces"),
    pytest.param(r"\newcommand*{\R}{\mathbb{R}}$\R$", r"$\mathbb{R}$", id="newcommand-starred"),
    pytest.param(r"\newcommand{\p}[2]{(#1,#2)}$\p{a}{b}$", "$(a,b)$", id="arguments"),
    pytest.param(r"\newcommand{\p}[2][x]{(#1,#2)}$\p{b} \p[a]{b}$", "$(x,b) (a,b)$", id="optional-default"),
    pytest.param(r"\newcommand{\R}{R}\renewcommand{\R}{\mathbb{R}}$\R$", r"$\mathbb{R}$", id="renewcommand"),
    pytest.param(r"\newcommand{\R}{R}\providecommand{\R}{S}\providecommand{\Q}{Q}$\R\Q$", "$RQ$", id="providecommand"),
    pytest.param(r"\DeclareRobustCommand{\R}[1]{\mathbb{#1}}$\R{R}$", r"$\mathbb{R}$", id="declarerobustcommand"),
    pytest.param(r"\DeclareRobustCommand*{\R}{\mathbb{R}}$\R$", r"$\mathbb{R}$", id="declarerobustcommand-starred"),
    pytest.param(r"\def\abs#1{\lvert#1\rvert}$\abs{x} \abs y$", r"$\lvert x\rvert \lvert y\rvert$", id="def"),
    pytest.param(r"\gdef\two#1#2{#2#1}$\two ab$", "$ba$", id="gdef-two-arguments"),
    pytest.param(r"\def\pt#1,#2.{P(#1;#2)}$\pt x,y.$", "$P(x;y)$", id="def-delimited"),
    pytest.param(r"\def\lam#1.#2{\lambda #1.\,#2}$\lam x.f(x)$", r"$\lambda x.\,f(x)$", id="def-binder"),
    pytest.param(r"\def\ev[#1]#2{#2(#1)}$\ev[a]{f}$", "$f(a)$", id="def-bracketed-first-argument"),
    pytest.param(r"\def\ev[#1]#2{#2(#1)}$\ev{f}$", r"$\ev{f}$", id="def-use-without-its-bracket-is-left"),
    pytest.param(r"\def\range#1 to #2.{[#1,#2]}$\range a to b.$", "$[a,b]$", id="def-word-delimiter"),
    pytest.param(r"\def\hash{a##b}$\hash$", "$a#b$", id="def-double-hash"),
    pytest.param(r"\def\x{1}\edef\x{\x+1}$\x$", "${1}+1$", id="edef-adds-to-its-old-meaning"),
    pytest.param(r"\let\eps\varepsilon$\eps$", r"$\varepsilon$", id="let"),
    pytest.param(r"\let\eps=\varepsilon$\eps$", r"$\varepsilon$", id="let-equals"),
    pytest.param(r"\newcommand{\R}{\mathbb{R}}\let\RR\R$\RR$", r"$\mathbb{R}$", id="let-a-macro"),
    pytest.param(r"\let\oldsqrt\sqrt\renewcommand{\sqrt}[1]{\oldsqrt{#1}}$\sqrt{2}$", r"$\sqrt{2}$",
                 id="let-keeps-the-old-meaning"),
    pytest.param(r"\let\nothing\relax$a\nothing b$", "$a b$", id="let-relax"),
    pytest.param(r"\newcommand{\R}{\mathbb{R}}\LetLtxMacro{\RR}{\R}$\RR$", r"$\mathbb{R}$", id="letltxmacro"),
    pytest.param(r"\DeclareMathOperator{\Tr}{Tr}$\Tr A$", r"$\operatorname{Tr} A$", id="declaremathoperator"),
    pytest.param(r"\DeclareMathOperator*{\argmax}{arg\,max}$\argmax_x$", r"$\operatorname*{arg\,max}_x$",
                 id="declaremathoperator-starred"),
    pytest.param(r"\newenvironment{eq}{\begin{equation}}{\end{equation}}\begin{eq}x\end{eq}",
                 r"\begin{equation}x\end{equation}", id="newenvironment"),
    pytest.param(r"\def\a{\frac}$\a{1}{2}$", r"$\frac{1}{2}$", id="arguments-after-the-replacement"),
    pytest.param(r"\newcommand{\R}{\mathbb{R}}\newcommand{\Rn}{\R^n}$\Rn$", r"$\mathbb{R}^n$", id="nested"),
])
def test_definitions(source, expected):
    assert expanded(source) == expected


@pytest.mark.parametrize("source, expected", [
    pytest.param(r"\NewDocumentCommand{\norm}{O{2}m}{\|#2\|_{#1}}$\norm{x} \norm[1]{y}$", r"$\|x\|_{2} \|y\|_{1}$",
                 id="m-and-O"),
    pytest.param(r"\NewDocumentCommand{\d}{sm}{\IfBooleanTF{#1}{D}{d}#2}$\d{x} \d*{y}$", "$dx Dy$",
                 id="s-and-ifbooleantf"),
    pytest.param(r"\NewDocumentCommand{\d}{sm}{\IfBooleanT{#1}{*}#2\IfBooleanF{#1}{'}}$\d{x} \d*{y}$", "$x' *y$",
                 id="ifbooleant-and-ifbooleanf"),
    pytest.param(r"\NewDocumentCommand{\d}{t+m}{\IfBooleanTF{#1}{+}{-}#2}$\d+x \d y$", "$+x -y$", id="t-token"),
    pytest.param(r"\NewDocumentCommand{\f}{om}{f\IfNoValueTF{#1}{}{_{#1}}(#2)}$\f{x} \f[n]{x}$", "$f(x) f_{n}(x)$",
                 id="o-and-ifnovaluetf"),
    pytest.param(r"\NewDocumentCommand{\f}{om}{f\IfValueT{#1}{_{#1}}\IfNoValueF{#1}{'}(#2)}$\f{x} \f[n]{x}$",
                 "$f(x) f_{n}'(x)$", id="ifvaluet-and-ifnovaluef"),
    pytest.param(r"\NewDocumentCommand{\f}{d()m}{f\IfValueTF{#1}{^{#1}}{}#2}$\f(2){x} \f{y}$", "$f^{2}x fy$",
                 id="d-delimited-optional"),
    pytest.param(r"\NewDocumentCommand{\f}{m}{a}\RenewDocumentCommand{\f}{m}{b#1}$\f{x}$", "$bx$",
                 id="renewdocumentcommand"),
    pytest.param(r"\DeclareDocumentCommand{\f}{m}{<#1>}$\f{x}$", "$<x>$", id="declaredocumentcommand"),
    pytest.param(r"\NewDocumentCommand{\f}{v}{#1}$\f|x|$", r"$\f|x|$", id="unsupported-kind-left-as-written"),
])
def test_xparse(source, expected):
    assert expanded(source) == expected


@pytest.mark.parametrize("source, expected", [
    pytest.param(r"\makeatletter\def\f@x{y}\def\f{\f@x}\makeatother$\f$", "$y$", id="makeatletter"),
    pytest.param(r"\def\my@x{y}\my $a$", r"\my $a$", id="at-is-no-letter-without-makeatletter"),
    pytest.param("\\catcode`\\@=11\n\\def\\f@x{y}\\def\\f{\\f@x}\\catcode`\\@12\\relax $\\f$", "$y$",
                 id="plain-tex-catcode"),
    pytest.param(r"\catcode`\^=7 $a^b$", r"\catcode`\^=7 $a^b$", id="other-catcodes-are-written"),
    pytest.param(r"\def\my@x{y}$\my@x$", "$y$", id="at-names-without-makeatletter-work-as-in-tex"),
    pytest.param(r"\makeatletter\def\f{\@ifnextchar[{\f@o}{\f@o[0]}}\def\f@o[#1]#2{f_{#1}(#2)}\makeatother"
                 r"$\f{x} \f[1]{y}$", "$f_{0}(x) f_{1}(y)$", id="ifnextchar-optional-argument"),
    pytest.param(r"\makeatletter\def\p#1{\@ifnextchar\bgroup{(#1)\p}{(#1)}}\makeatother$\p{a}{b}{c} x$",
                 "$(a)(b)(c) x$", id="ifnextchar-bgroup"),
    pytest.param(r"\makeatletter\def\s{\@ifstar{S}{s}}\makeatother$\s* \s x$", "$S s x$", id="ifstar"),
    pytest.param(r"\makeatletter\def\a{\@ifundefined{b}{u}{d}}\makeatother$\a\def\b{}\a$", "$ud$",
                 id="ifundefined"),
    pytest.param(r"\expandafter\def\csname lemma1\endcsname{L}$\csname lemma1\endcsname$", "$L$",
                 id="expandafter-def-csname"),
    pytest.param(r"\expandafter\newcommand\csname R\endcsname{\mathbb{R}}$\R$", r"$\mathbb{R}$",
                 id="expandafter-newcommand-csname"),
    pytest.param(r"\def\a{x}\def\b#1{[#1]}$\expandafter\b\a$", "$[x]$", id="expandafter-a-macro"),
    pytest.param(r"\makeatletter\@namedef{R}{\mathbb{R}}\makeatother$\R$", r"$\mathbb{R}$", id="namedef"),
    pytest.param(r"\makeatletter\@namedef{f}#1{f(#1)}$\@nameuse{f}{x}$", "$f(x)$", id="namedef-nameuse"),
    pytest.param(r"\makeatletter\def\f{\@firstoftwo{a}{b}\@secondoftwo{c}{d}\@gobble{e}}\makeatother$\f$", "$ad$",
                 id="kernel-macros"),
    pytest.param(r"\def\p{\mathchoice{\prod}{\Pi}{\Pi}{\Pi}}$\p$", r"$\prod$", id="mathchoice-display-style"),
    pytest.param(r"\makeatletter\def\t#1{\ifx\@empty#1\@empty e\else(#1)\fi}\makeatother$\t{} \t{xy}$", "$ e (xy)$",
                 id="ifx-empty-argument-test"),
    pytest.param(r"\csname alpha\endcsname", r"\alpha", id="csname"),
    pytest.param(r"\newcommand{\R}{\mathbb{R}}$\csname R\endcsname$", r"$\mathbb{R}$", id="csname-of-a-macro"),
])
def test_tex_internals(source, expected):
    assert expanded(source) == expected


@pytest.mark.parametrize("source, expected", [
    pytest.param(r"\newcommand{\U}{\ensuremath{\mathcal{U}}\xspace}the \U is $\U_i$",
                 r"the \ensuremath{\mathcal{U}} is $\ensuremath{\mathcal{U}}_i$", id="xspace"),
    pytest.param(r"a\relax b \protect\foo c\ignorespaces d\unskip e\nobreak f", r"a b \foo c d e f",
                 id="relax-protect-ignorespaces-unskip-nobreak"),
])
def test_commands_that_leave_nothing(source, expected):
    assert expanded(source) == expected


@pytest.mark.parametrize("source, expected", [
    pytest.param("a % comment\nb", "a b", id="comment"),
    pytest.param("a\\% b", "a\\% b", id="escaped-percent"),
    pytest.param("a %\n\n b", "a b", id="comment-keeps-paragraph"),
    pytest.param(r"a \iffalse $x$ \fi b", "a b", id="iffalse"),
    pytest.param(r"a \iffalse $x$ \else c \fi b", "a c b", id="iffalse-else"),
    pytest.param(r"a \iffalse \ifx y \fi $x$ \fi b", "a b", id="iffalse-nested"),
    pytest.param(r"\iftrue a \else b \fi c", "a c", id="iftrue"),
    pytest.param(r"\newif\ifdraft \ifdraft a\else b\fi \drafttrue \ifdraft c\else d\fi", "b c", id="newif"),
    pytest.param(r"$a \iff b$", r"$a \iff b$", id="iff-is-not-a-conditional"),
])
def test_what_tex_skips(source, expected):
    assert expanded(source) == expected


@pytest.mark.parametrize("source, verbatim", [
    pytest.param(r"a \verb|$x$| b", ["$x$"], id="verb"),
    pytest.param(r"a \verb*+$x$+ b", ["$x$"], id="verb-starred"),
    pytest.param(r"a \lstinline[language=TeX]!$y$! b", ["$y$"], id="lstinline"),
    pytest.param(r"a \mintinline{latex}{$z$} b", ["$z$"], id="mintinline"),
    pytest.param("\\begin{verbatim}\n$x$ \\newcommand{\\R}{S}\n\\end{verbatim}$\\R$", ["$x$ \\newcommand{\\R}{S}"],
                 id="verbatim"),
    pytest.param("\\begin{lstlisting}[language=TeX]\n$x$\n\\end{lstlisting}", ["[language=TeX]\n$x$"],
                 id="lstlisting"),
    pytest.param("\\begin{minted}{latex}\n$x$\n\\end{minted}", ["{latex}\n$x$"], id="minted"),
    pytest.param("\\DefineVerbatimEnvironment{code}{Verbatim}{}\\begin{code}$x$\\end{code}", ["$x$"],
                 id="own-verbatim-environment"),
    pytest.param("\\begin{tkzexample}[]\n\\def\\to{\\mapsto}$x$\n\\end{tkzexample}", ["[]\n\\def\\to{\\mapsto}$x$"],
                 id="tkzexample"),
])
def test_verbatim_is_set_aside(source, verbatim):
    expansion = expand(source, "main.tex", _no_files)
    assert expansion.verbatim == verbatim
    assert "$x$" not in expansion.text


def test_a_comment_environment_is_dropped():
    assert expanded("a \\begin{comment}\n$x$\n\\end{comment} b") == "a b"


def test_a_deep_but_finite_nesting_expands_fully():
    names = ["n" + first + second for first in string.ascii_lowercase for second in string.ascii_lowercase][:100]
    chain = rf"\def\{names[-1]}{{x}}" + "".join(rf"\def\{name}{{(\{inner})}}" for name, inner in zip(names, names[1:]))
    expansion = expand(chain + rf"$\{names[0]}$", "main.tex", _no_files)
    assert expansion.problems == []
    assert formulas(expansion.text) == ["(" * 99 + "x" + ")" * 99]


@pytest.mark.parametrize("definition", [
    pytest.param(r"\def\a{\a}", id="direct"),
    pytest.param(r"\def\a{x\a}", id="growing"),
    pytest.param(r"\def\a{\b}\def\b{\a}", id="mutual"),
    pytest.param(r"\newcommand{\a}{\a\a}", id="doubling"),
    pytest.param(r"\newcommand{\a}{(\a)}", id="nesting"),
    pytest.param(r"\def\a#1{\a{#1#1}}", id="growing-argument"),
])
def test_a_looping_macro_is_reported_once_with_its_line_and_left_as_written(definition):
    expansion = expand(definition + "\n\n$\\a + 1$ and $\\a$", "main.tex", _no_files)
    assert expansion.problems == [f"main.tex:3: macro \\a reads more than {MAX_USE_TOKENS:,} tokens (it expands "
                                  "forever); left as written"]
    assert formulas(expansion.text) == [r"\a + 1", r"\a"]


def _counting(monkeypatch) -> list[int]:
    """Counts the tokens read by every stream (the work of an expansion), in a one-item list."""
    read = [0]
    original = latex_tokens.TokenStream.next

    def next_token(self):
        read[0] += 1
        return original(self)
    monkeypatch.setattr(latex_tokens.TokenStream, "next", next_token)
    return read


def _tree(levels: int, uses: int) -> str:
    """A file of `levels` macros, each using the next twice (2^levels tokens a use), used `uses` times."""
    names = ["q" + letter for letter in string.ascii_letters[:levels + 1]]
    definitions = "".join(rf"\def\{name}{{\{inner}\{inner}}}" for name, inner in zip(names, names[1:]))
    return definitions + rf"\def\{names[-1]}{{x}}" + "$" + rf"\{names[0]} " * uses + "$"


@pytest.mark.parametrize("levels, why", [
    pytest.param(12, "goes past the {budget:,} tokens the document's macros may read; no macro is expanded after it",
                 id="uses-within-the-use-bound-spend-the-document-s"),
    pytest.param(13, f"reads more than {MAX_USE_TOKENS:,} tokens (it expands forever)", id="a-use-past-the-use-bound"),
])
def test_a_small_file_asking_for_millions_of_tokens_is_stopped_early(monkeypatch, levels, why):
    read = _counting(monkeypatch)
    source = _tree(levels, 100)
    assert len(source) < 700
    expansion = expand(source, "main.tex", _no_files)
    budget = latex_uses.MAX_DOCUMENT_TOKENS + latex_uses.TOKENS_PER_SOURCE_CHAR * len(source)
    assert read[0] < budget + MAX_USE_TOKENS + len(source)  # not the 100 × 3 × 2^levels the file asks for
    assert expansion.problems == [f"main.tex:1: macro \\qa {why.format(budget=budget)}; left as written"]


def test_the_document_budget_grows_with_its_text():
    ordinary = r"\newcommand{\R}{\mathbb{R}}" + "A line about $\\R^n$ and its dual space.\n" * 4000
    expansion = expand(ordinary, "main.tex", _no_files)
    assert expansion.problems == []
    assert expansion.text.count(r"\mathbb{R}") == 4000


def test_the_text_a_document_produces_is_bounded(monkeypatch):
    monkeypatch.setattr(budgets, "MAX_DOCUMENT_CHARS", 1000)
    with pytest.raises(OverBudget, match=r"over the budget of 1,000 characters .*: text produced \(583\), main.tex read \(418\)"):
        expand(r"\def\a{xxxxxxxxxx}" + r"\a" * 200, "main.tex", _no_files)


def test_verbatim_and_each_inclusion_count_towards_the_budget(monkeypatch):
    """A file of verbatim text included 200 times took gigabytes: reading stops within the budget, naming it."""
    monkeypatch.setattr(budgets, "MAX_DOCUMENT_CHARS", 20_000)
    big = "\\begin{verbatim}\n" + "x" * 3_000 + "\n\\end{verbatim}\n"
    included = []

    def resolve(command, name, including):
        included.append(name)
        return "big.tex", big

    with pytest.raises(OverBudget, match=r"big\.tex read 3 times \(9,099\), verbatim set aside \(9,000\), "
                                         r"main\.tex read"):
        expand("\\documentclass{article}\n" + "\\input{big}\n" * 200, "main.tex", resolve)
    assert len(included) == 3


def test_an_upload_shares_its_macro_tokens_among_its_documents():
    """A folder of small macro bombs: once the upload's tokens are spent, its other documents expand nothing."""
    bomb = "".join(f"\\def\\m{chr(98 + i)}{{\\m{chr(97 + i)}\\m{chr(97 + i)}}}" for i in range(13))
    source = "\\def\\ma{x}" + bomb + "\n" + "\\mn " * 100 + "\n\\def\\one{1}$\\one$"
    tokens = UploadTokens(30_000)
    first = expand(source, "first.tex", _no_files, tokens=tokens)
    second = expand(source, "second.tex", _no_files, tokens=tokens)
    assert "(it expands forever)" in first.problems[0] and first.text.endswith("$1$")
    assert tokens.left == 0
    assert "its upload's macros had left" in second.problems[0] and second.text.endswith(r"$\one$")


def test_a_runaway_argument_is_reported_once_per_macro_and_other_uses_still_expand():
    source = "\\def\\a#1/{(#1)}\nfirst \\a x y\n\nnext $\\a z/$ \\a w\n\nend \\a v/"
    expansion = expand(source, "main.tex", _no_files)
    assert " ".join(expansion.text.split()) == r"first \a x y next $(z)$ \a w end (v)"
    assert expansion.problems == ["main.tex:2: macro \\a has a runaway argument: an argument's delimiter '/' does "
                                  "not come before a blank line; left as written"]


def test_a_macro_short_of_arguments_never_swallows_the_end_of_its_environment():
    source = ("\\def\\Second#1#2{#2}\n\\begin{eqnarray*}\n x & = & \\Foldl{f}{e}\\Second\n\\end{eqnarray*}\n"
              "after $\\Second{a}{b}$")
    expansion = expand(source, "main.tex", _no_files)
    assert " ".join(expansion.text.split()) == (r"\begin{eqnarray*} x & = & \Foldl{f}{e}\Second \end{eqnarray*} "
                                                r"after $b$")
    assert expansion.problems == ["main.tex:3: macro \\Second has a runaway argument: an argument would be the "
                                  "\\end of its environment (fewer arguments given than it reads); left as written"]


def test_a_runaway_definition_is_reported_where_reading_stopped():
    expansion = expand("\\newcommand{\\a}{" + "x\n" * 60_000, "main.tex", _no_files)
    assert expansion.problems == ["main.tex:50001: \\newcommand: an argument runs past 100,000 characters (a brace "
                                  "never closed)"]


def test_a_problem_names_the_included_file_and_its_line():
    expansion = expand(r"\def\a{\a}\input{b}", "main.tex", _files({"b.tex": "one\ntwo $\\a$"}))
    assert expansion.problems == [f"b.tex:2: macro \\a reads more than {MAX_USE_TOKENS:,} tokens (it expands "
                                  "forever); left as written"]


def test_an_undefined_macro_is_left_to_the_formula_parser():
    assert expanded(r"$\undefined{x}$") == r"$\undefined{x}$"


def test_the_text_after_end_document_is_not_read():
    assert expanded("\\begin{document}a\\end{document}\n\\def\\x{") == "\\begin{document}a\\end{document}"


def test_an_example_of_a_whole_document_does_not_end_the_document():
    source = ("\\begin{document}\\begin{showexample}\\begin{document}x\\end{document}\\end{showexample} $y$"
              "\\end{document} after")
    assert expanded(source).endswith("$y$\\end{document}")


def test_includes_are_read_in_place_with_file_markers():
    expansion = expand(r"x \input{a} $\R$", "main.tex", _files({"a.tex": r"\newcommand{\R}{\mathbb{R}}A"}))
    assert " ".join(expansion.text.split()) == r"x \mathsearchfile{a.tex}A\mathsearchfile{main.tex} $\mathbb{R}$"
    assert expansion.included == {"a.tex"}


def test_a_package_of_the_upload_is_read_with_at_a_letter():
    package = r"\def\f@x{y}\newcommand{\f}{\f@x}\newcommand{\g}{\@ifstar{G}{g}}"
    assert expanded(r"\usepackage{mine}$\f \g* \g$", **{"mine.sty": package}) == (
        r"\mathsearchfile{mine.sty}\mathsearchfile{main.tex}$y G g$")


def test_a_missing_include_is_reported():
    expansion = expand(r"x \include{gone} y", "main.tex", _no_files)
    assert expansion.problems == [r"main.tex: \include{gone}: no such file in the upload"]


def test_an_include_cycle_is_reported():
    expansion = expand(r"\input{a}", "main.tex", _files({"a.tex": r"A \input{b}", "b.tex": r"B \input{a}"}))
    assert expansion.problems == [r"b.tex: \input{a}: include cycle a.tex → b.tex → a.tex"]


@pytest.mark.parametrize("source, expected", [
    pytest.param(r"\def\{{\symbol{`\{}}$\{$", r"$\symbol{`\{}$", id="backtick-character-code"),
    pytest.param(r"{\def\x{a}$\x$}$\x$", r"{$a$}$\x$", id="definition-ends-with-its-group"),
    pytest.param(r"{\gdef\x{a}}$\x$", r"{}$a$", id="gdef-is-global"),
    pytest.param(r"{\global\def\x{a}}$\x$", r"{}$a$", id="global-prefix"),
])
def test_tex_details(source, expected):
    assert expanded(source) == expected


def test_expl3_definitions_are_not_expanded():
    assert expanded(r"\ExplSyntaxOn \NewDocumentCommand{\x}{m}{\seq_item:Nn #1} \ExplSyntaxOff $\x{a}$") == r"$\x{a}$"


PACKAGE = {"R": Macro("R", body=r"\mathbb{R}"), "norm": Macro("norm", (Param("m"),), r"\|#1\|")}


@pytest.mark.parametrize("source, expected", [
    pytest.param(r"$\R \norm{x}$", r"$\mathbb{R} \|x\|$", id="in-force-from-the-start"),
    pytest.param(r"\newcommand{\R}{R}$\R$", "$R$", id="newcommand-replaces"),
    pytest.param(r"\def\norm#1{|#1|}$\norm{x}$", "$|x|$", id="def-replaces"),
    pytest.param(r"\DeclareMathOperator{\R}{R}$\R$", r"$\operatorname{R}$", id="declaremathoperator-replaces"),
    pytest.param(r"\NewDocumentCommand{\norm}{m}{N#1}$\norm{x}$", "$Nx$", id="xparse-replaces"),
    pytest.param(r"\providecommand{\R}{R}$\R$", r"$\mathbb{R}$", id="providecommand-does-not"),
])
def test_predefined_macros(source, expected):
    assert " ".join(expand(source, "main.tex", _no_files, PACKAGE).text.split()) == expected


def test_the_document_s_own_macros_are_given_for_reading_queries():
    source = r"\makeatletter\def\f@x{y}\makeatother\newcommand{\R}{R}\def\norm#1{|#1|}{\def\local{}}$\R$"
    macros = expand(source, "main.tex", _no_files, PACKAGE).macros
    assert macros == {"R": Macro("R", body="R"), "norm": Macro("norm", (Param("m"),), "|#1|"),
                      "f@x": Macro("f@x", body="y", at_letter=True)}  # the internals a public macro may call


TYPE_THEORY_MACROS = r"""% Macros in the style of a type-theory book.
\makeatletter
\newcommand{\UU}{\ensuremath{\mathcal{U}}\xspace}
\newcommand{\type}{\ensuremath{\mathsf{Type}}\xspace}
\newcommand{\id}[3][]{\ensuremath{#2 =_{#1} #3}\xspace}
% Binders: \prd{x:A}B, \prd{x:A}{y:B}C, \prd{x:A}\sm{y:B}C, \prd{x}P.
\def\@binder#1#2{#1_{(#2)}\,}
\def\prd#1{\@ifnextchar\bgroup{\prd@parens{#1}}{\@ifnextchar\sm{\prd@parens{#1}\@eatsm}{\prd@noparens{#1}}}}
\def\prd@parens#1{\@ifnextchar\bgroup{\@binder\prod{#1}\prd@parens}{\@binder\prod{#1}}}
\def\prd@noparens#1{\prod_{#1}\,}
\def\sm#1{\@ifnextchar\bgroup{\sm@parens{#1}}{\sm@noparens{#1}}}
\def\sm@parens#1{\@ifnextchar\bgroup{\@binder\sum{#1}\sm@parens}{\@binder\sum{#1}}}
\def\sm@noparens#1{\sum_{#1}\,}
\def\@eatsm\sm{\sm@parens}
\def\exi#1.#2{\exists #1.\,#2}
% \lam{x}f, \lam{x:A}f, \lam{x}{y}f: a colon in the binder makes a typed one.
\newcommand{\lam}[1]{\lambda\@lamarg#1:\@endlamarg\@ifnextchar\bgroup{.\,\lam}{.\,}}
\def\@lamarg#1:#2\@endlamarg{\if\relax\detokenize{#2}\relax #1\else (#1:\@lameatcolon#2)\fi}
\def\@lameatcolon#1:{#1}
\newcommand{\ind}{\@ifnextchar[{\ind@at}{\ind@plain}}
\def\ind@at[#1]#2{\mathsf{ind}^{#1}_{#2}}
\def\ind@plain#1{\mathsf{ind}_{#1}}
\newcommand{\fib}{\@ifstar{\fib@star}{\fib@plain}}
\newcommand{\fib@star}[2]{\mathsf{fib}^{*}_{#1}(#2)}
\newcommand{\fib@plain}[2]{\mathsf{fib}_{#1}(#2)}
\DeclareRobustCommand{\refl}[1]{\mathsf{refl}_{#1}}
\NewDocumentCommand{\ap}{s o m m}{\IfBooleanTF{#1}{\mathsf{apd}}{\mathsf{ap}}_{#3}\IfNoValueF{#2}{^{#2}}(#4)}
\expandafter\def\csname idfunc\endcsname{\mathsf{id}}
\@namedef{trans}#1#2{#1 \cdot #2}
\newcommand*{\transport}[2]{\ensuremath{\mathsf{transport}^{#1}(#2)}\xspace}
\makeatother
"""
TYPE_THEORY_CHAPTER = r"""\documentclass{book}
\input{macros}
\begin{document}
Let $A : \UU_i$ and $B : \type$ with $\id[A]{x}{y}$.
$\prd{x:A} B(x)$, $\prd{x:A}{y:B} C$, $\prd{x:A}\sm{y:B} C$, $\sm{x} P$,
$\exi x. P(x)$, $\lam{x} f(x)$, $\lam{x:A}{y} f$, $\ind[C]{A}$, $\ind{A}$, $\fib*{f}{y}$, $\fib{f}{y}$,
$\refl{a}$, $\ap{f}{p}$, $\ap*[2]{f}{p}$, $\idfunc$, $\trans{p}{q}$, $\transport{P}{p}$.
\end{document}
"""


def test_a_type_theory_book_s_formulas_are_free_of_its_macro_file():
    expansion = expand(TYPE_THEORY_CHAPTER, "main.tex", _files({"macros.tex": TYPE_THEORY_MACROS}))
    assert expansion.problems == []
    assert formulas(expansion.text) == [
        r"A : \ensuremath{\mathcal{U}}_i", r"B : \ensuremath{\mathsf{Type}}", r"\ensuremath{x =_{A} y}",
        r"\prod_{x:A}\, B(x)", r"\prod_{(x:A)}\,\prod_{(y:B)}\, C", r"\prod_{(x:A)}\,\sum_{(y:B)}\, C",
        r"\sum_{x}\, P", r"\exists x.\,P(x)", r"\lambda x.\, f(x)", r"\lambda (x:A).\,\lambda y.\, f",
        r"\mathsf{ind}^{C}_{A}", r"\mathsf{ind}_{A}", r"\mathsf{fib}^{*}_{f}(y)",
        r"\mathsf{fib}_{f}(y)", r"\mathsf{refl}_{a}", r"\mathsf{ap}_{f}(p)", r"\mathsf{apd}_{f}^{2}(p)",
        r"\mathsf{id}", r"p \cdot q", r"\ensuremath{\mathsf{transport}^{P}(p)}"]
    defined = set(re.findall(r"\\(?:def|newcommand\*?\{|DeclareRobustCommand\{|NewDocumentCommand\{)\\([A-Za-z@]+)",
                             TYPE_THEORY_MACROS))
    assert not [formula for formula in formulas(expansion.text)
                if set(re.findall(r"\\([A-Za-z@]+)", formula)) & (defined | {"xspace"}) or "@" in formula]


def test_reading_is_bounded_outside_macro_uses_too(monkeypatch):
    monkeypatch.setattr(latex_uses, "MAX_DOCUMENT_TOKENS", 0)
    monkeypatch.setattr(latex_uses, "TOKENS_PER_SOURCE_CHAR", 0)  # so that reading the text itself is too much
    with pytest.raises(ValueError, match="reading the document took more than 0 tokens"):
        expand("text", "main.tex", _no_files)


@pytest.mark.parametrize("definition", [
    pytest.param(r"\newtheorem{example}{Example}", id="newtheorem"),
    pytest.param(r"\newtheorem*{example}{Example}", id="newtheorem-starred"),
    pytest.param(r"\newenvironment{example}{\par Example.}{}", id="newenvironment"),
])
def test_a_documents_own_environment_named_like_a_verbatim_one_is_read(definition):
    """`example` is a verbatim environment of some packages' manuals, and a theorem of many papers."""
    text = expanded(definition + r"\begin{example}$x^2$ is a square.\end{example}")
    assert "$x^2$ is a square." in text and "mathsearchcode" not in text


@pytest.mark.parametrize("source, expected", [
    pytest.param(r"\def\<{\langle}$\<x, y\>$", r"$\langle x, y\>$", id="control-symbol-then-a-letter"),
    pytest.param(r"\newcommand{\e}{\epsilon}$\e% a comment" "\n" r"x$", r"$\epsilon x$", id="after-a-comment"),
    pytest.param(r"\def\a{\alpha}$\a\a y$", r"$\alpha\alpha y$", id="no-space-where-none-is-needed"),
])
def test_a_replacement_ending_in_a_command_stays_apart_from_the_letters_after_it(source, expected):
    assert expanded(source) == expected
