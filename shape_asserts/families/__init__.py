"""Shape families, one module each; ``shape_asserts.families.registry`` collects them into the registry."""
