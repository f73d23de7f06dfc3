"""
Ways of filling `proto_parser`'s slots, each a `SlotVariant` given to the parser as `slot_variant`:

* `copy`: the paper's (copy an entity from the utterance, name a variable), the default;

* `classified_entities`: entity slots name a value of a vocabulary of entity values, as the authors'
  code does (docs/reproduction.md rows 16 and 36);
* `authors`: that, with slot states computed as in the authors' code (note 3): entity slots continue
  from the decoder state of their step, variable slots form one chain per example.
"""

from fewshot_parser.modules.slot_variants.authors_slots import AuthorsSlots
from fewshot_parser.modules.slot_variants.classified_entities import ClassifiedEntities
from fewshot_parser.modules.slot_variants.copy_slots import CopySlots
from fewshot_parser.modules.slot_variants.slot_variant import SlotVariant
