"""The shipped model files of Mü (package data): the learned auction (learned/model_file.py)."""
