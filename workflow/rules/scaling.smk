# placeholder: owned by the issue that builds this part
SCALING_TARGETS = []
