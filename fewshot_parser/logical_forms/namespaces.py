"""
Names of the vocabulary namespaces that hold the pieces of logical forms, and the entity type of a
word that is no entity.

The readers fill these namespaces (`fewshot_parser.data.dataset_readers.fewshot_reader`), and the
modules, models and callbacks look actions, variables and entity types up in them; keeping the
names here, below all of them, lets each import them without importing a dataset reader. They are
the keys of every saved vocabulary and archive: renaming one breaks the archives made before.
"""

# Action strings (`GEN ...`, `REDUCE ...`, `STOP`): the output vocabulary of the template decoder.
ACTION_NAMESPACE = "actions"
# Variable names (`$0`, `A`, ...) that the slot filler chooses from.
VARIABLE_NAMESPACE = "variables"
# Entity types of utterance words (`s` for `s0`), which restrict what an entity slot may copy.
ENTITY_TYPE_NAMESPACE = "entity_types"
# Entity type of utterance tokens that are not entities.
NOT_AN_ENTITY = "@none@"
