"""The engine: hands, games and matches under any compiled configuration, and bots."""
