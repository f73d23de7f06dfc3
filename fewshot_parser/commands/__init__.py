from fewshot_parser.commands.augment_data import AugmentData
from fewshot_parser.commands.inspect_data import InspectData
from fewshot_parser.commands.make_splits import MakeSplits
from fewshot_parser.commands.run_grid import RunGrid
from fewshot_parser.commands.serve import Serve
from fewshot_parser.commands.teach import Teach
