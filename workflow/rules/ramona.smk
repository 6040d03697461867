# placeholder: owned by the issue that builds this part
RAMONA_TARGETS = []
