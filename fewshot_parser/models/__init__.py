from fewshot_parser.models.proto_parser import ProtoParser
from fewshot_parser.models.seq2seq import FewShotSeq2Seq
from fewshot_parser.models.coarse2fine import Coarse2Fine
from fewshot_parser.models.irnet_parser import IRNetParser
