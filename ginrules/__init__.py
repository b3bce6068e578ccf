"""ginrules: Gin Rummy rules as data."""
