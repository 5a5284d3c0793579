"""`python manage.py parse "LATEX" --json` prints both trees; `parse --file F --summary` measures a file of formulas."""
import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from corpora.corpus_files import read_formulas
from corpora.tolerant import MalformedFile
from mathparse import NOTATIONS, ParseError, graphs_to_json, parse
from mathparse.opt_nodes import serialize
from ml.evaluation.parser_coverage import summarize


class Command(BaseCommand):
    help = "Parse a formula into its Symbol Layout Tree and Operator Tree, or summarise a file of formulas."

    def add_arguments(self, parser):
        parser.add_argument("formula", nargs="?")
        parser.add_argument("--notation", choices=NOTATIONS, default="latex")
        parser.add_argument("--file", type=Path, help="one LaTeX formula per line")
        parser.add_argument("--summary", action="store_true", help="with --file: {total, slt_ok, opt_ok, …}")
        parser.add_argument("--json", action="store_true", help="print both trees as JSON")

    def handle(self, *args, formula, notation, file, summary, **options):
        if file is not None:
            self._summarize(file)
        elif formula is not None:
            self._parse_one(formula, notation, options["json"])
        else:
            raise CommandError("give a formula, or --file F --summary")

    def _parse_one(self, formula: str, notation: str, as_json: bool) -> None:
        try:
            graphs = parse(formula, notation)
        except ParseError as error:
            raise CommandError(f"{error.kind} at position {error.pos}: {error.message}") from None
        data = graphs_to_json(graphs)
        if as_json:
            self.stdout.write(json.dumps(data, ensure_ascii=False, indent=2))
            return
        self.stdout.write(f"SLT: {data['slt']['string']}")
        self.stdout.write(f"OPT: {serialize(graphs.opt.root) if graphs.opt else f'none — {graphs.opt_error}'}")

    def _summarize(self, path: Path) -> None:
        if not path.is_file():
            raise CommandError(f"no such file: {path}")
        try:
            formulas = read_formulas(path, "latex")
        except MalformedFile as error:
            raise CommandError(str(error)) from None
        report = summarize(formula.text for formula in formulas)
        self.stdout.write(json.dumps(report, ensure_ascii=False, indent=2))
