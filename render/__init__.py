"""Pictures of what a player may see, drawn with Pillow from core's views."""
