  kit_rwp_in                                            225426               0
  kit_rwp_out                                           225426               0
