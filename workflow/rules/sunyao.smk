# placeholder: owned by the issue that builds this part
SUNYAO_TARGETS = []
