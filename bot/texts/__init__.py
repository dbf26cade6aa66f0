"""The words the front ends show, one module per subject."""
