  kit_rwp_in                                            226221               0
  kit_rwp_out                                           226221               0
