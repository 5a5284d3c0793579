import re

import pytest

from corpora.documents import budgets
from corpora.documents.budgets import OverBudget
from corpora.documents.latex_expansion import expand
from corpora.documents.latex_macros import Macro, Param
from tests.corpora.documents.conftest import dollar_formulas, expanded, no_files, resolver


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


def test_the_text_a_document_produces_is_bounded(monkeypatch):
    monkeypatch.setattr(budgets, "MAX_DOCUMENT_CHARS", 1000)
    with pytest.raises(OverBudget, match=r"over the budget of 1,000 characters .*: text produced \(583\), main.tex read \(418\)"):
        expand(r"\def\a{xxxxxxxxxx}" + r"\a" * 200, "main.tex", no_files)


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


def test_an_undefined_macro_is_left_to_the_formula_parser():
    assert expanded(r"$\undefined{x}$") == r"$\undefined{x}$"


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
    assert " ".join(expand(source, "main.tex", no_files, PACKAGE).text.split()) == expected


def test_the_document_s_own_macros_are_given_for_reading_queries():
    source = r"\makeatletter\def\f@x{y}\makeatother\newcommand{\R}{R}\def\norm#1{|#1|}{\def\local{}}$\R$"
    macros = expand(source, "main.tex", no_files, PACKAGE).macros
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
    expansion = expand(TYPE_THEORY_CHAPTER, "main.tex", resolver({"macros.tex": TYPE_THEORY_MACROS}))
    assert expansion.problems == []
    assert dollar_formulas(expansion.text) == [
        r"A : \ensuremath{\mathcal{U}}_i", r"B : \ensuremath{\mathsf{Type}}", r"\ensuremath{x =_{A} y}",
        r"\prod_{x:A}\, B(x)", r"\prod_{(x:A)}\,\prod_{(y:B)}\, C", r"\prod_{(x:A)}\,\sum_{(y:B)}\, C",
        r"\sum_{x}\, P", r"\exists x.\,P(x)", r"\lambda x.\, f(x)", r"\lambda (x:A).\,\lambda y.\, f",
        r"\mathsf{ind}^{C}_{A}", r"\mathsf{ind}_{A}", r"\mathsf{fib}^{*}_{f}(y)",
        r"\mathsf{fib}_{f}(y)", r"\mathsf{refl}_{a}", r"\mathsf{ap}_{f}(p)", r"\mathsf{apd}_{f}^{2}(p)",
        r"\mathsf{id}", r"p \cdot q", r"\ensuremath{\mathsf{transport}^{P}(p)}"]
    defined = set(re.findall(r"\\(?:def|newcommand\*?\{|DeclareRobustCommand\{|NewDocumentCommand\{)\\([A-Za-z@]+)",
                             TYPE_THEORY_MACROS))
    assert not [formula for formula in dollar_formulas(expansion.text)
                if set(re.findall(r"\\([A-Za-z@]+)", formula)) & (defined | {"xspace"}) or "@" in formula]


@pytest.mark.parametrize("definition", [
    pytest.param(r"\newtheorem{example}{Example}", id="newtheorem"),
    pytest.param(r"\newtheorem*{example}{Example}", id="newtheorem-starred"),
    pytest.param(r"\newenvironment{example}{\par Example.}{}", id="newenvironment"),
])
def test_a_documents_own_environment_named_like_a_verbatim_one_is_read(definition):
    """`example` is a verbatim environment of some packages' manuals, and a theorem of many papers."""
    text = expanded(definition + r"\begin{example}$x^2$ is a square.\end{example}")
    assert "$x^2$ is a square." in text and "mathsearchcode" not in text

