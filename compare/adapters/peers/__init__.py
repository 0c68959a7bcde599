"""One module per peer compiler; see ../peer.py for what each provides."""
