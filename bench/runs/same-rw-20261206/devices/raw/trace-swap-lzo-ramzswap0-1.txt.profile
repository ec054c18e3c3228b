  kit_rwp_in                                            217404               0
  kit_rwp_out                                           217404               0
