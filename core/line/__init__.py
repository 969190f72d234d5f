"""The line family: the two-ended line, the cross, Canton, end-point scoring, their matches."""
