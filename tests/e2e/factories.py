"""Builders the browser tests share."""

FORMULAS = [r"x^2 + y^2 = z^2", r"a^2 + b^2 = c^2", r"\frac{a}{b} + \frac{c}{d}", r"e^{i\pi} + 1 = 0",
            r"\sum_{n=1}^{\infty} \frac{1}{n^2} = \frac{\pi^2}{6}", r"\sin^2 x + \cos^2 x = 1"]
