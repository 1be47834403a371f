"""Shape families, one module each; ``shape_asserts.shapes`` collects them into the registry."""
