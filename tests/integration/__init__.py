"""Plugin behaviour, tested by running the shape suite inside pytest (pytester)."""
