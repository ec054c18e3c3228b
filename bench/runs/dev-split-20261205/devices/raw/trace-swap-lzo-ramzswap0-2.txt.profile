  kit_rwp_in                                            223306               0
  kit_rwp_out                                           223306               0
