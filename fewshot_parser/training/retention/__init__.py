"""
Retention in fine-tuning: ways to keep what the pre-trained parser knows about known
predicates while the support set teaches it new ones, each a `RetentionMethod` that a
`fewshot_pretrain_finetune` config lists under `retention` (none by default).
"""

from fewshot_parser.training.retention.attach import attach_retention, check_optimizer
from fewshot_parser.training.retention.fallback import PretrainedFallback
from fewshot_parser.training.retention.method import RetentionContext, RetentionMethod
