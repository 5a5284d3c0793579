"""Self-supervised contrastive training of the node encoders (In+Out, DESIGN.md §3)."""
from ml.training.config import DEFAULT_CONFIG_FILE, TrainConfig
from ml.training.trainer import Progress, TrainResult, train

__all__ = ["DEFAULT_CONFIG_FILE", "Progress", "TrainConfig", "TrainResult", "train"]
