from fewshot_lab.commands.certify import Certify
from fewshot_lab.commands.report import Report

__all__ = ["Certify", "Report"]
