import torch
from allennlp.training.learning_rate_schedulers import LearningRateScheduler


@LearningRateScheduler.register("fewshot_delayed_exponential")
class DelayedExponentialScheduler(LearningRateScheduler):
    """
    Keeps the learning rate for `start_epoch` epochs, then multiplies it by `gamma` after every
    epoch (the authors' schedule: decay 0.985 per epoch after epoch 20).

    Registered as a `LearningRateScheduler` with name "fewshot_delayed_exponential".

    # Parameters

    optimizer : `torch.optim.Optimizer`
    start_epoch : `int`, optional (default = `20`)
    gamma : `float`, optional (default = `0.985`)
    """

    def __init__(
        self, optimizer: torch.optim.Optimizer, start_epoch: int = 20, gamma: float = 0.985, last_epoch: int = -1
    ) -> None:
        self.start_epoch = start_epoch
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_values(self):
        decayed_epochs = max(0, self.last_epoch + 1 - self.start_epoch)
        factor = self.gamma**decayed_epochs
        return [base * factor for base in self.base_values]
