"""
Modules that build some of their layers only when their settings use them (`OptionalLayers`), and load a state
dict that holds those layers anyway: one saved before the module left them out, or by a module with other
settings (a pre-training whose loss term was active, when its fine-tuning's is not).
"""

import logging
from typing import ClassVar, Tuple

from torch import nn

logger = logging.getLogger(__name__)


class OptionalLayers(nn.Module):
    """
    A module whose layers named in `OPTIONAL_LAYERS` are `None` when its settings do not use them. Loading leaves
    out the stored weights of such a layer the module did not build, with a log line naming them; any other
    weight it lacks stays an unexpected key.
    """

    OPTIONAL_LAYERS: ClassVar[Tuple[str, ...]] = ()

    def _load_from_state_dict(self, state_dict, prefix, *args, **kwargs):  # type: ignore[no-untyped-def]
        unbuilt = tuple(f"{prefix}{name}." for name in self.OPTIONAL_LAYERS if getattr(self, name) is None)
        left_out = [key for key in state_dict if key.startswith(unbuilt)] if unbuilt else []
        for key in left_out:
            del state_dict[key]
        if left_out:
            logger.info("Not loaded: weights of layers this model does not build: %s", ", ".join(left_out))
        super()._load_from_state_dict(state_dict, prefix, *args, **kwargs)
