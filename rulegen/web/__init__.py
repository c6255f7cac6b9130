"""The web faces of rulegen (architecture.md's `web` layer): one package per app, each calling the layers below as
the commands do and holding no logic about filings of its own."""
