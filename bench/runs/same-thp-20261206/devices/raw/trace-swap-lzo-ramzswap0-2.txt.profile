  kit_rwp_in                                            180211               0
  kit_rwp_out                                           180211               0
