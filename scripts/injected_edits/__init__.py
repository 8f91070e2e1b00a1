"""The injected bugs of scripts/injected-bugs.py for the repositories of
docs/real-code/corpus.json other than cuda-samples and code-samples: one
module per repository, each a list EDITS of edits made with the helpers
below. An edit's path is 'NAME:path/in/repository', NAME as the manifest
names the repository. Only the edits are here, never the repositories' code:
each change is a text that occurs exactly once in the file and what replaces
it."""


def edit(ident, check, path, changes, why, at=None, unit=None):
    """`changes`: (find, replace) pairs. `at`: where the bug shows, when
    not at the edit itself (the host's read after a deleted wait): text of
    that line in the edited file. `unit`: for an edit of a header, the
    translation unit ('NAME:path') whose parse compiles it (a class
    template's members, say); its findings in the header count."""
    return {"id": ident, "check": "cuda-async-" + check, "path": path,
            "changes": changes, "why": why, "at": at, "unit": unit}


def sub(find, replace):
    return (find, replace)


def after(anchor, text):
    return (anchor, anchor + text)


def before(anchor, text):
    return (anchor, text + anchor)


def delete(text):
    return (text, "")


from . import (gpu_burn, heldback_babelstream, heldback_cuda_by_example,  # noqa
               heldback_shoc, heldback_xsbench, heldback2_argot,
               heldback2_darknet, heldback2_hpc2n_gpu_course,
               heldback2_simple_gpu_hashtable, heldback2_xmrig_cuda,
               heldback3_astroaccelerate, heldback3_csc_cuda,
               heldback3_gamer, heldback3_tigre, heldback3_vanitysearch,
               heldback4_cudasw4, heldback4_gpujpeg, heldback4_hierarchicalkv,
               heldback4_hybridsort, heldback4_totem,
               heldback5_cholla, heldback5_cuda_zstd, heldback5_hecbench,
               heldback5_kaldi, heldback5_nvidia_hpcg,
               heldback6_gasal2, heldback6_genomeworks,
               heldback6_jetson_utils, heldback6_mgbench,
               hip_examples, kernel_races, libraries,
               library_samples, llm_c, multi_gpu, professional_cuda, rodinia,
               teaching)

ALL = (multi_gpu.EDITS + teaching.EDITS + hip_examples.EDITS +
       gpu_burn.EDITS + llm_c.EDITS + libraries.EDITS +
       professional_cuda.EDITS + rodinia.EDITS + library_samples.EDITS +
       heldback_xsbench.EDITS + heldback_shoc.EDITS +
       heldback_babelstream.EDITS + heldback_cuda_by_example.EDITS +
       kernel_races.EDITS +
       heldback2_argot.EDITS + heldback2_xmrig_cuda.EDITS +
       heldback2_darknet.EDITS + heldback2_simple_gpu_hashtable.EDITS +
       heldback2_hpc2n_gpu_course.EDITS +
       heldback3_tigre.EDITS + heldback3_gamer.EDITS +
       heldback3_astroaccelerate.EDITS + heldback3_vanitysearch.EDITS +
       heldback3_csc_cuda.EDITS +
       heldback4_hybridsort.EDITS + heldback4_hierarchicalkv.EDITS +
       heldback4_totem.EDITS + heldback4_cudasw4.EDITS +
       heldback4_gpujpeg.EDITS +
       heldback5_hecbench.EDITS + heldback5_kaldi.EDITS +
       heldback5_cholla.EDITS + heldback5_nvidia_hpcg.EDITS +
       heldback5_cuda_zstd.EDITS +
       heldback6_gasal2.EDITS + heldback6_genomeworks.EDITS +
       heldback6_jetson_utils.EDITS + heldback6_mgbench.EDITS)
