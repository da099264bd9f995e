"""Word aligners, one module each."""
