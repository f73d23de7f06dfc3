"""
Loss terms of `proto_parser` beyond the cross-entropy of its actions and slots: the attention
regularizer of the paper (Eq. 5-6), supervised attention of the authors' scripts, and how per-step
losses are reduced to a batch loss.
"""

from fewshot_parser.modules.loss_terms.attention_regularizer import AttentionRegularizer
from fewshot_parser.modules.loss_terms.loss_term import LossTerm
from fewshot_parser.modules.loss_terms.reduction import REDUCTIONS, check_reduction, per_example, sum_terms
from fewshot_parser.modules.loss_terms.supervised_attention import SupervisedAttention
