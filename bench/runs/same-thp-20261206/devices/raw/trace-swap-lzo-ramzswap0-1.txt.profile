  kit_rwp_in                                            180479               0
  kit_rwp_out                                           180479               0
