"""Text: all-MiniLM-L6-v2 vectors of posts, questions and the words around formulas."""
from ml.text.encoder import TEXT_DIM, EncodedPost, MissingTextModel, TextEncoder, text_encoder

__all__ = ["TEXT_DIM", "EncodedPost", "MissingTextModel", "TextEncoder", "text_encoder"]
