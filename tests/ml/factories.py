"""Builders the libraries' tests and the app tests share: Math StackExchange thread pages as ARQMath ships them, and
judged candidate topics for the ranker."""
import numpy as np

from ml.ranking.cross_validation import TopicCandidates
from ml.ranking.features import FEATURES

MATH = '<math {alt} class="ltx_Math" xmlns="http://www.w3.org/1998/Math/MathML"><semantics><mi>x</mi></semantics></math>'


def thread_page(question_body: str, answer_body: str, title: str = "Sum of squares") -> str:
    return f"""<html><body>
<div class="row" id="question-title"><h1> {title} </h1></div>
<div class="question"><div id="question" question_id="11">{question_body}</div>
<div id="tags"><span> algebra </span><span> number-theory </span></div>
<div id="question-comments"><table><tbody><tr><td comment_id="5"> Try {formula_span(9, 'n')}. </td></tr></tbody></table></div></div>
<div class="answer"><div answer_id="12" id="answer">{answer_body}</div>
<div id="answer-comments"><table><tbody></tbody></table></div></div>
<div id="related"><table><tbody><tr><td>{formula_span(99, 'z')} elsewhere</td></tr></tbody></table></div>
</body></html>"""


def formula_span(formula_id: int, latex: str) -> str:
    return (f'<span class="math-container" id="{formula_id}" visual_id="{formula_id + 100}">'
            + MATH.format(alt=f'alttext="{latex}"') + "</span>")


def judged(count: int = 15, seed: int = 0):
    """Topics where feature 2 decides relevance and the dense score is noise; some candidates unjudged."""
    rng = np.random.default_rng(seed)
    data, qrels = {}, {}
    for t in range(count):
        features = rng.random((60, len(FEATURES))).astype(np.float32)
        docs = [f"t{t}d{i}" for i in range(60)]
        data[f"T{t}"] = TopicCandidates(docs, features, rng.random(60))
        grades = np.digitize(features[:, 2], [0.5, 0.7, 0.85])
        qrels[f"T{t}"] = {doc: int(g) for doc, g in zip(docs[:45], grades[:45])}
    return data, qrels
