  kit_rwp_in                                            178789               0
  kit_rwp_out                                           178789               0
