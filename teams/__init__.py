"""Built-in kill teams shipped with the engine (JSON data files; see README.md here)."""
