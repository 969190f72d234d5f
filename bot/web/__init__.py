"""The web table: the page and its state, served beside the chat (issue 30)."""
