"""The grid rows the lab knows: the product's table (experiments/systems.jsonnet) and the lab's probe rows
(lab/systems.jsonnet), as `fewshot_parser.commands.systems.read_systems` reads them."""

import os

from fewshot_parser.commands.systems import SYSTEMS_TABLE, read_systems

LAB_TABLE = os.path.join("lab", "systems.jsonnet")
TABLES = [SYSTEMS_TABLE, LAB_TABLE]
SYSTEMS = read_systems(TABLES)
