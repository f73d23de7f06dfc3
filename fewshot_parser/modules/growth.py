import torch


def grow_linear(layer: torch.nn.Linear, size: int) -> torch.nn.Linear:
    """`layer` with `size` outputs: trained rows kept, new rows freshly initialised (unchanged if big enough)."""
    if size <= layer.out_features:
        return layer
    grown = torch.nn.Linear(layer.in_features, size).to(layer.weight.device)
    with torch.no_grad():
        grown.weight[: layer.out_features] = layer.weight
        grown.bias[: layer.out_features] = layer.bias
    return grown
