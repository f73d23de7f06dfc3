from fewshot_parser.training.callbacks import (
    AlignmentStatisticsCallback,
    DomainStatisticsCallback,
    PrototypeInitCallback,
)
from fewshot_parser.training.maml import MamlTrainer
from fewshot_parser.training.pretrain_finetune import PretrainFinetune
from fewshot_parser.training.retention import RetentionMethod
from fewshot_parser.training.schedulers import DelayedExponentialScheduler
